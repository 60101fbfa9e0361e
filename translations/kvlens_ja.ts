<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>QObject</name>
    <message>
        <source>%1: true or false</source>
        <translation>%1: true か false を指定してください</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a number</source>
        <translation>%1: &apos;%2&apos; は数値ではありません</translation>
    </message>
    <message>
        <source>%1: %2 is outside [%3, %4]</source>
        <translation>%1: %2 は範囲 [%3, %4] の外です</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not a whole number</source>
        <translation>%1: &apos;%2&apos; は整数ではありません</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; is not one of %3</source>
        <translation>%1: &apos;%2&apos; は %3 のいずれでもありません</translation>
    </message>
    <message>
        <source>%1: must not be negative</source>
        <translation>%1: 負の値は指定できません</translation>
    </message>
    <message>
        <source>%1: no spaces or , + ( ) : = in a value (lists use &apos;;&apos;)</source>
        <translation>%1: 値に空白や , + ( ) : = は使えません（リストは &apos;;&apos; で区切ります）</translation>
    </message>
    <message>
        <source>%1 · %2 parameters · %3 layers · %4 kv / %5 query heads</source>
        <translation>%1 · パラメータ %2 · %3 層 · kv ヘッド %4 / クエリヘッド %5</translation>
    </message>
</context>
<context>
    <name>kvl</name>
    <message>
        <source>cannot read the run file: %1</source>
        <translation>実行ファイルを読み込めません: %1</translation>
    </message>
    <message>
        <source>the output folder is a file</source>
        <translation>出力フォルダがファイルです</translation>
    </message>
    <message>
        <source>cannot create the output folder</source>
        <translation>出力フォルダを作成できません</translation>
    </message>
    <message>
        <source>cannot write in the output folder: %1</source>
        <translation>出力フォルダに書き込めません: %1</translation>
    </message>
    <message>
        <source>not a file</source>
        <translation>ファイルではありません</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>ファイルがありません</translation>
    </message>
    <message>
        <source>intervals: Wilson score for 0/1 values, else mean ± 1.96 standard errors</source>
        <translation>区間: 0/1 の値は Wilson スコア、それ以外は平均 ± 1.96 標準誤差</translation>
    </message>
    <message>
        <source> (evidence recall %1)</source>
        <translation>（根拠の再現率 %1）</translation>
    </message>
    <message>
        <source>%1 · %2, chunk %3</source>
        <translation>%1 · %2、チャンク %3</translation>
    </message>
    <message>
        <source>Mean evidence recall (share of evidence entries retrieved)</source>
        <translation>根拠の平均再現率（取得された根拠エントリの割合）</translation>
    </message>
    <message>
        <source>Ratio r: each decoding step attends to ⌊T(1 − r)⌋ of the T context entries per kv-head (unless a budget is set in tokens)</source>
        <translation>比率 r: 各デコードステップは kv ヘッドごとに T 個のコンテキストエントリのうち ⌊T(1 − r)⌋ 個を参照（トークン数で予算を指定した場合を除く）</translation>
    </message>
    <message>
        <source>Task score (mean over rows)</source>
        <translation>タスクスコア（行の平均）</translation>
    </message>
    <message>
        <source>chunk %1</source>
        <translation>チャンク %1</translation>
    </message>
    <message>
        <source>FullCache</source>
        <translation>FullCache</translation>
    </message>
    <message>
        <source>Evidence kept (ERR), mean over rows</source>
        <translation>保持された根拠 (ERR)、行の平均</translation>
    </message>
    <message>
        <source>Compression while decoding (0 = the prefill&apos;s mask, k = after the k-th)</source>
        <translation>デコード中の圧縮 (0 = プリフィルのマスク、k = k 回目の後)</translation>
    </message>
    <message>
        <source>step</source>
        <translation>ステップ</translation>
    </message>
    <message>
        <source>FullCache (keeps every entry)</source>
        <translation>FullCache (すべてのエントリを保持)</translation>
    </message>
    <message>
        <source>intervals: mean ± 1.96 standard errors; n = the rows whose answer reached the step</source>
        <translation>区間: 平均 ± 1.96 標準誤差、n = 回答がそのステップに達した行数</translation>
    </message>
    <message>
        <source>the run holds nothing to draw (%1)</source>
        <translation>この実行には描画できるものがありません（%1）</translation>
    </message>
    <message>
        <source>unsupported: %1</source>
        <translation>非対応: %1</translation>
    </message>
    <message>
        <source>failed on %n sample(s): %1</source>
        <translation>%n 個のサンプルで失敗: %1</translation>
    </message>
    <message>
        <source>no rows</source>
        <translation>行がありません</translation>
    </message>
    <message>
        <source>not in the run</source>
        <translation>実行に含まれていません</translation>
    </message>
    <message>
        <source>no FullCache-correct pairs</source>
        <translation>FullCache が正解のペアがありません</translation>
    </message>
    <message>
        <source>needs two compressors</source>
        <translation>圧縮手法が 2 つ必要です</translation>
    </message>
    <message>
        <source>%1 has no rows here</source>
        <translation>%1 にはここで行がありません</translation>
    </message>
    <message>
        <source>neither %1 nor %2 fails a sample here</source>
        <translation>%1 も %2 もここで失敗するサンプルがありません</translation>
    </message>
    <message>
        <source>Outcomes by compressor and compression ratio</source>
        <translation>圧縮手法と圧縮率ごとの結果</translation>
    </message>
    <message>
        <source>Compressor</source>
        <translation>圧縮手法</translation>
    </message>
    <message>
        <source>Mean task score ↑</source>
        <translation>平均タスクスコア ↑</translation>
    </message>
    <message>
        <source>Mean task score (× 100)</source>
        <translation>平均タスクスコア (× 100)</translation>
    </message>
    <message>
        <source>rows scored</source>
        <translation>スコア付きの行</translation>
    </message>
    <message>
        <source>C→W rate (%) ↓</source>
        <translation>C→W 率 (%) ↓</translation>
    </message>
    <message>
        <source>C→W rate</source>
        <translation>C→W 率</translation>
    </message>
    <message>
        <source>C→W rows</source>
        <translation>C→W 行数</translation>
    </message>
    <message>
        <source>FullCache-correct pairs</source>
        <translation>FullCache が正解のペア</translation>
    </message>
    <message>
        <source>no scored rows</source>
        <translation>スコア付きの行がありません</translation>
    </message>
    <message>
        <source>C→W failures by suite and compression ratio</source>
        <translation>スイートと圧縮率ごとの C→W 失敗</translation>
    </message>
    <message>
        <source>Suite</source>
        <translation>スイート</translation>
    </message>
    <message>
        <source>(no suite)</source>
        <translation>(スイートなし)</translation>
    </message>
    <message>
        <source>Mean C→W rate (%)</source>
        <translation>平均 C→W 率 (%)</translation>
    </message>
    <message>
        <source>Mean C→W rate over compressors</source>
        <translation>圧縮手法全体の平均 C→W 率</translation>
    </message>
    <message>
        <source>compressors averaged</source>
        <translation>平均した圧縮手法</translation>
    </message>
    <message>
        <source>C→W rows of those</source>
        <translation>そのうちの C→W 行</translation>
    </message>
    <message>
        <source>their FullCache-correct pairs</source>
        <translation>それらの FullCache が正解のペア</translation>
    </message>
    <message>
        <source>Failure-set Jaccard: %1 vs %2</source>
        <translation>失敗集合の Jaccard: %1 対 %2</translation>
    </message>
    <message>
        <source>Failure-set Jaccard</source>
        <translation>失敗集合の Jaccard</translation>
    </message>
    <message>
        <source>Jaccard of the C→W samples</source>
        <translation>C→W サンプルの Jaccard</translation>
    </message>
    <message>
        <source>C→W samples of %1</source>
        <translation>%1 の C→W サンプル</translation>
    </message>
    <message>
        <source>C→W samples of both</source>
        <translation>両方の C→W サンプル</translation>
    </message>
    <message>
        <source>Jaccard: %1 vs %2</source>
        <translation>Jaccard: %1 対 %2</translation>
    </message>
</context>
<context>
    <name>kvl::AccuracyDeltaModel</name>
    <message>
        <source>not in A</source>
        <translation>A になし</translation>
    </message>
    <message>
        <source>not in B</source>
        <translation>B になし</translation>
    </message>
    <message>
        <source>Compressor</source>
        <translation>圧縮手法</translation>
    </message>
    <message>
        <source>Ratio</source>
        <translation>比率</translation>
    </message>
    <message>
        <source>Accuracy A</source>
        <translation>正解率 A</translation>
    </message>
    <message>
        <source>Accuracy B</source>
        <translation>正解率 B</translation>
    </message>
    <message>
        <source>n matched</source>
        <translation>対応数 n</translation>
    </message>
    <message>
        <source>Correct only in A</source>
        <translation>A のみ正解</translation>
    </message>
    <message>
        <source>Correct only in B</source>
        <translation>B のみ正解</translation>
    </message>
    <message>
        <source>Δ (B − A)</source>
        <translation>Δ（B − A）</translation>
    </message>
    <message>
        <source>Unpaired: the runs share no sample, so each accuracy is over its own run&apos;s samples and B − A compares two independent estimates.</source>
        <translation>対応なし：2つの実行に共通のサンプルがないため、各正解率はそれぞれの実行のサンプルに基づき、B − A は独立した2つの推定値の比較です。</translation>
    </message>
    <message>
        <source>Δ (B − A), unpaired</source>
        <translation>Δ (B − A)、対応なし</translation>
    </message>
    <message>
        <source>n (A / B)</source>
        <translation>n (A / B)</translation>
    </message>
</context>
<context>
    <name>kvl::AccuracyPage</name>
    <message>
        <source>Suite:</source>
        <translation>スイート:</translation>
    </message>
    <message>
        <source>Selected %1 at ratio %2</source>
        <translation>%1（圧縮率 %2）を選択しました</translation>
    </message>
    <message>
        <source>All suites</source>
        <translation>すべてのスイート</translation>
    </message>
    <message>
        <source>no accuracy rows in the run</source>
        <translation>この実行には正答率の行がありません</translation>
    </message>
    <message>
        <source>the run has no suite</source>
        <translation>この実行にはスイートがありません</translation>
    </message>
    <message>
        <source>the run has one suite (%1): accuracy is it</source>
        <translation>この実行のスイートは 1 つ（%1）だけです: 正答率はそのスイートのものです</translation>
    </message>
    <message>
        <source>no accuracy rows for the suite</source>
        <translation>このスイートには正答率の行がありません</translation>
    </message>
    <message>
        <source>Not in these curves: %1</source>
        <translation>この曲線に含まれないもの: %1</translation>
    </message>
</context>
<context>
    <name>kvl::AccuracyRatioView</name>
    <message>
        <source>Accuracy vs compression ratio</source>
        <translation>圧縮率と正答率</translation>
    </message>
    <message>
        <source>No run open.
Open a run file (File › Open run…) or start one (File › New run…) to see accuracy against compression ratio for each compressor.</source>
        <translation>実行結果が開かれていません。
実行ファイルを開く（ファイル › 実行結果を開く…）か、新しい実行を開始する（ファイル › 新しい実行…）と、圧縮手法ごとの圧縮率と正答率が表示されます。</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>正答率</translation>
    </message>
    <message>
        <source>FullCache (%1)</source>
        <translation>FullCache（%1）</translation>
    </message>
    <message>
        <source>FullCache (%1, n = %2)</source>
        <translation>FullCache（%1、n = %2）</translation>
    </message>
    <message>
        <source>cliff at %1</source>
        <translation>崖: %1</translation>
    </message>
    <message>
        <source>Wilson score intervals</source>
        <translation>Wilson スコア区間</translation>
    </message>
</context>
<context>
    <name>kvl::AttentionPage</name>
    <message>
        <source>No FullCache attention stored for this sample.</source>
        <translation>このサンプルの FullCache アテンションは保存されていません。</translation>
    </message>
    <message>
        <source>Question attention · FullCache</source>
        <translation>質問のアテンション · FullCache</translation>
    </message>
    <message>
        <source>no FullCache attention stored</source>
        <translation>FullCache のアテンションは保存されていません</translation>
    </message>
    <message>
        <source>Question attention · %1</source>
        <translation>質問のアテンション · %1</translation>
    </message>
    <message>
        <source>no attention stored</source>
        <translation>アテンションは保存されていません</translation>
    </message>
</context>
<context>
    <name>kvl::BatchExport</name>
    <message>
        <source>no compressed configuration with rows in the run</source>
        <translation>実行に行のある圧縮構成がありません</translation>
    </message>
    <message>
        <source>no ratio with two compressors and samples</source>
        <translation>2 つの圧縮手法とサンプルがそろった圧縮率がありません</translation>
    </message>
    <message>
        <source>no interventions in the run</source>
        <translation>実行に介入がありません</translation>
    </message>
    <message>
        <source>no instruction spans in the run</source>
        <translation>実行に指示スパンがありません</translation>
    </message>
    <message>
        <source>no leakage measured in the run</source>
        <translation>実行で漏えいが測定されていません</translation>
    </message>
</context>
<context>
    <name>kvl::ChainBreaksPage</name>
    <message>
        <source>No chain breaks in this run.
Multihop answers write the chain out (Hotel = Sierra = Kilo = 7); for the rows FullCache answers and a compressor fails, this view shows at which step the written chain went wrong.</source>
        <translation>この実行には連鎖の断絶がありません。
マルチホップの回答は連鎖を書き出します（Hotel = Sierra = Kilo = 7）。FullCache が正答し圧縮器が誤答した行について、書き出された連鎖がどの段で誤ったかを示します。</translation>
    </message>
    <message>
        <source>Selected %1 multihop C→W rows of %2 at ratio %3: %4</source>
        <translation>%2（比率 %3）のマルチホップ C→W 行 %1 件を選択: %4</translation>
    </message>
    <message>
        <source>%1 · chain broken at: %2 (C→W)</source>
        <translation>%1 · 連鎖の断絶: %2 (C→W)</translation>
    </message>
    <message>
        <source>no multihop C→W rows</source>
        <translation>multihop の C→W 行がありません</translation>
    </message>
</context>
<context>
    <name>kvl::CliQuery</name>
    <message>
        <source>%1 stopped with exit code %2</source>
        <translation>%1 が終了コード %2 で停止しました</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 を開始できません: %2</translation>
    </message>
</context>
<context>
    <name>kvl::ComparePanel</name>
    <message>
        <source>Reference (pinned):</source>
        <translation>基準（固定）:</translation>
    </message>
    <message>
        <source>A:</source>
        <translation>A:</translation>
    </message>
    <message>
        <source>B:</source>
        <translation>B:</translation>
    </message>
    <message>
        <source>Pick a configuration and a sample (toolbar) to compare.</source>
        <translation>比較する構成とサンプル（ツールバー）を選んでください。</translation>
    </message>
    <message>
        <source>%1 — loading…</source>
        <translation>%1 — 読み込み中…</translation>
    </message>
    <message>
        <source>answer %1 (%2)</source>
        <translation>回答 %1（%2）</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>正解</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>不正解</translation>
    </message>
    <message>
        <source>no row for sample %1</source>
        <translation>サンプル %1 の行はありません</translation>
    </message>
    <message>
        <source>sample %1</source>
        <translation>サンプル %1</translation>
    </message>
    <message>
        <source>%1 vs %2: %3</source>
        <translation>%1 と %2: %3</translation>
    </message>
    <message>
        <source>sample %1 not compared: in %2 this id names another sample (%3)</source>
        <translation>サンプル %1 は比較しません: %2 ではこの ID が別のサンプルを指します（%3）</translation>
    </message>
    <message>
        <source>sample %1 not compared: %2 holds no sample with the same content</source>
        <translation>サンプル %1 は比較しません: %2 に同じ内容のサンプルがありません</translation>
    </message>
    <message>
        <source>sample %1 (same content as %2)</source>
        <translation>サンプル %1（%2 と同じ内容）</translation>
    </message>
    <message>
        <source>The sample this panel shows: the one selected in the toolbar, or one of its own to compare two samples under one configuration</source>
        <translation>このパネルが表示するサンプル：ツールバーで選択したもの、または一つの構成で二つのサンプルを比べるための個別のサンプル</translation>
    </message>
    <message>
        <source>Sample:</source>
        <translation>サンプル：</translation>
    </message>
    <message>
        <source>selected in the toolbar</source>
        <translation>ツールバーで選択中</translation>
    </message>
</context>
<context>
    <name>kvl::DecodingCurvesPage</name>
    <message>
        <source>Evidence recall</source>
        <translation>根拠の再現率</translation>
    </message>
    <message>
        <source>Score by landmark and chunk</source>
        <translation>ランドマークとチャンク別のスコア</translation>
    </message>
    <message>
        <source>Evidence kept while compressing</source>
        <translation>圧縮中に保持された根拠</translation>
    </message>
    <message>
        <source>no offloading in the run</source>
        <translation>実行にオフロードがありません</translation>
    </message>
    <message>
        <source>Evidence recall of retrieval vs compression ratio</source>
        <translation>圧縮率と検索による根拠の再現率</translation>
    </message>
    <message>
        <source>No offloading in this run.
Runs of the offloading presses (shadowkv, quest, yakv) show how much of the evidence each decoding step retrieved, per method.</source>
        <translation>この実行にはオフロードがありません。
オフロード系プレス（shadowkv、quest、yakv）の実行では、各デコードステップが根拠をどれだけ取得したかを手法ごとに表示します。</translation>
    </message>
    <message>
        <source>Task score by landmark kind and chunk size</source>
        <translation>ランドマークの種類とチャンクサイズ別のタスクスコア</translation>
    </message>
    <message>
        <source>No offloading in this run.
Runs of the offloading presses show the task score per landmark kind (colour) and chunk size (line style) against the ratio.</source>
        <translation>この実行にはオフロードがありません。
オフロード系プレスの実行では、ランドマークの種類（色）とチャンクサイズ（線種）ごとのタスクスコアを比率に対して表示します。</translation>
    </message>
    <message>
        <source>Evidence kept while decoding, after each compression</source>
        <translation>デコード中に保持された根拠 (各圧縮の後)</translation>
    </message>
    <message>
        <source>No compression during decoding in this run.
Runs of the decode-time presses (decoding, compression_ratio_decoding, prefill_decoding, cam) show how much of the evidence the cache still holds after each compression of the answer.</source>
        <translation>この実行にはデコード中の圧縮がありません。
デコード時プレス (decoding、compression_ratio_decoding、prefill_decoding、cam) の実行では、回答の各圧縮の後にキャッシュが根拠をどれだけ保持しているかを示します。</translation>
    </message>
    <message>
        <source>no compression during decoding in the run</source>
        <translation>実行にデコード中の圧縮がありません</translation>
    </message>
</context>
<context>
    <name>kvl::DemoRunner</name>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>Stop the run; finished samples stay in the run file</source>
        <translation>実行を停止します。完了したサンプルは実行ファイルに残ります</translation>
    </message>
    <message>
        <source>Demo: %1 of %2 samples</source>
        <translation>デモ: %2 サンプル中 %1</translation>
    </message>
    <message>
        <source>, about %1 s left</source>
        <translation>、残り約 %1 秒</translation>
    </message>
    <message>
        <source>Demo finished.</source>
        <translation>デモが完了しました。</translation>
    </message>
    <message>
        <source>Demo cancelled; finished samples are kept.</source>
        <translation>デモをキャンセルしました。完了したサンプルは保持されます。</translation>
    </message>
    <message>
        <source>Demo failed (exit code %1).</source>
        <translation>デモが失敗しました（終了コード %1）。</translation>
    </message>
</context>
<context>
    <name>kvl::DetailHints</name>
    <message>
        <source> · sample %1</source>
        <translation> · サンプル %1</translation>
    </message>
    <message>
        <source>FullCache attention, entries evicted by %1 greyed%2 (its own attention is not stored)</source>
        <translation>FullCache のアテンション、%1 が退避したエントリを灰色で表示%2（%1 自身のアテンションは保存されていません）</translation>
    </message>
    <message>
        <source>Question attention — %1%2</source>
        <translation>質問のアテンション — %1%2</translation>
    </message>
    <message>
        <source>Question attention — FullCache%1</source>
        <translation>質問のアテンション — FullCache%1</translation>
    </message>
    <message>
        <source>No compressed configuration chosen.
Pick one in the Configuration box of the toolbar.</source>
        <translation>圧縮設定が選ばれていません。
ツールバーの「設定」から選んでください。</translation>
    </message>
    <message>
        <source>The run holds no rows of %1.</source>
        <translation>この実行には %1 の行がありません。</translation>
    </message>
    <message>
        <source>No attention of %1 to draw.
%2</source>
        <translation>%1 の描画できるアテンションがありません。
%2</translation>
    </message>
    <message>
        <source>No FullCache attention to draw.
%1</source>
        <translation>描画できる FullCache のアテンションがありません。
%1</translation>
    </message>
    <message>
        <source>No eviction map of %1.
%2</source>
        <translation>%1 の退避マップがありません。
%2</translation>
    </message>
    <message>
        <source>sample %1</source>
        <translation>サンプル %1</translation>
    </message>
    <message>
        <source>Eviction map — %1</source>
        <translation>退避マップ — %1</translation>
    </message>
    <message>
        <source>Eviction map — %1 · %2</source>
        <translation>退避マップ — %1 · %2</translation>
    </message>
    <message>
        <source>No sample in this run yet.
The run file says it is running, and no sample has finished. A run still preparing fills in as samples finish; a run cancelled before its first sample keeps this state (start it again with the same --out to resume).</source>
        <translation>この実行にはまだサンプルがありません。
実行ファイルは実行中と記録していますが、完了したサンプルはありません。準備中の実行はサンプルが終わるごとに表示されます。最初のサンプルの前に取り消された実行はこの状態のままです（同じ --out で再開できます）。</translation>
    </message>
    <message>
        <source>No sample in this run.
The run file&apos;s status is &apos;%1&apos; and it holds no finished sample.</source>
        <translation>この実行にはサンプルがありません。
実行ファイルの状態は「%1」で、完了したサンプルはありません。</translation>
    </message>
    <message numerus="yes">
        <source>mean over %n sample(s)</source>
        <translation>
            <numerusform>%n サンプルの平均</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No row in this run: the sweep skipped all %n sample(s).
First reason: %1</source>
        <translation>
            <numerusform>この実行には行がありません: スイープは %n 個のサンプルをすべてスキップしました。
最初の理由: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kvl::DisplayMenu</name>
    <message>
        <source>&amp;Theme</source>
        <translation>テーマ(&amp;T)</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>ライト</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>ダーク</translation>
    </message>
    <message>
        <source>Heatmap &amp;colour map</source>
        <translation>ヒートマップのカラーマップ(&amp;C)</translation>
    </message>
    <message>
        <source>Viridis</source>
        <translation>Viridis</translation>
    </message>
    <message>
        <source>Cividis</source>
        <translation>Cividis</translation>
    </message>
    <message>
        <source>Heatmap &amp;logarithmic scale</source>
        <translation>ヒートマップを対数目盛で表示(&amp;L)</translation>
    </message>
    <message>
        <source>Heatmaps: one colour sca&amp;le for FullCache and compressed</source>
        <translation>ヒートマップ: FullCache と圧縮で共通の色スケール(&amp;L)</translation>
    </message>
    <message>
        <source>Taxonomy and chain breaks as &amp;shares</source>
        <translation>分類と連鎖の断絶を割合で表示(&amp;S)</translation>
    </message>
</context>
<context>
    <name>kvl::EvictionMapView</name>
    <message>
        <source>Eviction map over instruction spans</source>
        <translation>指示スパン上の退避マップ</translation>
    </message>
    <message>
        <source>No run open.
The eviction map shows, per layer and context position, the share of kv-heads that keep each token, under the instruction spans.</source>
        <translation>実行結果が開かれていません。
退避マップは、層とコンテキスト位置ごとに各トークンを保持する KV ヘッドの割合を、指示スパンとともに表示します。</translation>
    </message>
    <message>
        <source>Context position (mean over bins of %1 positions)</source>
        <translation>コンテキスト位置（%1 位置ごとの平均）</translation>
    </message>
    <message>
        <source>Context position</source>
        <translation>コンテキスト位置</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>Keep fraction (share of kv-heads)</source>
        <translation>保持率（KV ヘッドの割合）</translation>
    </message>
    <message>
        <source> · %1–%2 of %3</source>
        <translation> · %3 中 %1–%2</translation>
    </message>
    <message>
        <source> (mean of positions %1–%2)</source>
        <translation>（位置 %1–%2 の平均）</translation>
    </message>
    <message>
        <source>layer %1 · keep fraction %2%3</source>
        <translation>層 %1 · 保持率 %2%3</translation>
    </message>
</context>
<context>
    <name>kvl::EvictionPage</name>
    <message>
        <source>no kept mask stored</source>
        <translation>保持マスクは保存されていません</translation>
    </message>
</context>
<context>
    <name>kvl::FailureSetsPage</name>
    <message>
        <source>Failures at ratio %1: %2 only</source>
        <translation>圧縮率 %1 での失敗: %2 のみ</translation>
    </message>
    <message>
        <source>no compressor fails a sample at this ratio</source>
        <translation>この圧縮率でサンプルに失敗する圧縮手法はありません</translation>
    </message>
</context>
<context>
    <name>kvl::FailureSetsView</name>
    <message>
        <source>Failure sets (UpSet)</source>
        <translation>失敗集合（UpSet）</translation>
    </message>
    <message>
        <source>No failure sets to compare.
With two or more compressors at one ratio, this view counts the samples each combination of them fails (C→W) and no other.</source>
        <translation>比較する失敗集合がありません。
同じ圧縮率に 2 つ以上の圧縮手法があると、この図は各組み合わせだけが失敗する（C→W）サンプルの数を示します。</translation>
    </message>
    <message>
        <source>%1 at ratio %2</source>
        <translation>%1（圧縮率 %2）</translation>
    </message>
    <message>
        <source>Samples failing under exactly these</source>
        <translation>ちょうどこの組み合わせで失敗したサンプル</translation>
    </message>
    <message>
        <source>C→W samples</source>
        <translation>C→W サンプル</translation>
    </message>
    <message>
        <source>every compressor (%1)</source>
        <translation>すべての圧縮手法（%1）</translation>
    </message>
    <message>
        <source>%1 only</source>
        <translation>%1 のみ</translation>
    </message>
    <message numerus="yes">
        <source>Failed (C→W) by %1: %n sample(s)</source>
        <translation>
            <numerusform>%1 で失敗（C→W）: %n サンプル</numerusform>
        </translation>
    </message>
    <message>
        <source>the %1 largest of %2 intersections; the CSV holds every one</source>
        <translation>%2 個の共通部分のうち大きい %1 個。CSV にはすべてを収録</translation>
    </message>
</context>
<context>
    <name>kvl::FigureExporter</name>
    <message>
        <source>cannot write the PNG file</source>
        <translation>PNG ファイルを書き込めません</translation>
    </message>
    <message>
        <source>cannot write the PDF file</source>
        <translation>PDF ファイルを書き込めません</translation>
    </message>
    <message>
        <source>cannot write the SVG file</source>
        <translation>SVG ファイルを書き込めません</translation>
    </message>
    <message>
        <source>unknown figure format (use a .png, .pdf or .svg file name)</source>
        <translation>不明な図の形式です（.png、.pdf、.svg のファイル名を使ってください）</translation>
    </message>
    <message>
        <source>no figure to write</source>
        <translation>書き出す図がありません</translation>
    </message>
    <message>
        <source>the figure size is empty</source>
        <translation>図のサイズが空です</translation>
    </message>
</context>
<context>
    <name>kvl::FileMenu</name>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New run…</source>
        <translation>新しい実行(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open run…</source>
        <translation>実行結果を開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Close run</source>
        <translation>実行結果を閉じる(&amp;C)</translation>
    </message>
    <message>
        <source>Export &amp;figure…</source>
        <translation>図をエクスポート(&amp;F)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>データをエクスポート(&amp;D)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>Open run</source>
        <translation>実行結果を開く</translation>
    </message>
    <message>
        <source>KVLens runs (*.kvl);;All files (*)</source>
        <translation>KVLens 実行ファイル (*.kvl);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Run finished: %1</source>
        <translation>実行が完了しました: %1</translation>
    </message>
    <message>
        <source>Run stopped: %1</source>
        <translation>実行が停止しました: %1</translation>
    </message>
    <message>
        <source>The run&apos;s rows are still being checked; export once the check is done.</source>
        <translation>実行の行はまだ検査中です。検査が終わってからエクスポートしてください。</translation>
    </message>
</context>
<context>
    <name>kvl::GerConsensusView</name>
    <message>
        <source>GER and head consensus per layer</source>
        <translation>層ごとの GER とヘッド合意度</translation>
    </message>
    <message>
        <source>No run open.
GER per layer rises towards 1 just before the accuracy cliff; consensus shows where the heads of a layer agree.</source>
        <translation>実行結果が開かれていません。
層ごとの GER は正答率の崖の直前で 1 に近づきます。合意度は層内のヘッドが一致する箇所を示します。</translation>
    </message>
    <message>
        <source>GER</source>
        <translation>GER</translation>
    </message>
    <message>
        <source>Consensus</source>
        <translation>合意度</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>層</translation>
    </message>
</context>
<context>
    <name>kvl::GerPage</name>
    <message>
        <source>no per-layer GER stored for %1</source>
        <translation>%1 の層ごとの GER は保存されていません</translation>
    </message>
</context>
<context>
    <name>kvl::Glossary</name>
    <message>
        <source>Uncompressed cache</source>
        <translation>キャッシュ非圧縮</translation>
    </message>
    <message>
        <source>The run of the same sample with the whole cache: the baseline of every comparison.</source>
        <translation>同じサンプルをキャッシュ全体で実行したもの: すべての比較の基準です。</translation>
    </message>
    <message>
        <source>Compression ratio r</source>
        <translation>圧縮率 r</translation>
    </message>
    <message>
        <source>The fraction of the context&apos;s KV entries removed (r = 0.75 keeps 25 %); the budget is 1 − r.</source>
        <translation>コンテキストの KV エントリのうち削除される割合 (r = 0.75 なら 25 % を保持)。予算は 1 − r です。</translation>
    </message>
    <message>
        <source>Outcome transition</source>
        <translation>結果の遷移</translation>
    </message>
    <message>
        <source>FullCache&apos;s outcome → the compressed outcome: C→C, C→W, W→C or W→W (C correct, W wrong).</source>
        <translation>FullCache の結果 → 圧縮後の結果: C→C、C→W、W→C、W→W (C は正解、W は誤答)。</translation>
    </message>
    <message>
        <source>Correct to wrong</source>
        <translation>正解から誤答へ</translation>
    </message>
    <message>
        <source>FullCache answers correctly and the compressed cache does not: the failures compression causes.</source>
        <translation>FullCache は正解し、圧縮キャッシュは正解しない: 圧縮が引き起こした失敗です。</translation>
    </message>
    <message>
        <source>C→W rate</source>
        <translation>C→W 率</translation>
    </message>
    <message>
        <source>C→W rows over the rows whose sample FullCache answers correctly, in percent.</source>
        <translation>FullCache が正解するサンプルの行に対する C→W 行の割合 (%)。</translation>
    </message>
    <message>
        <source>Evidence retention rate</source>
        <translation>エビデンス保持率</translation>
    </message>
    <message>
        <source>The mean over slots (layer, kv-head) of the share of the evidence tokens kept: (1/|S|) Σ_s |R_s ∩ E| / |E|. Undefined for compressors that keep every position.</source>
        <translation>スロット (層, kv ヘッド) ごとの保持されたエビデンストークンの割合の平均: (1/|S|) Σ_s |R_s ∩ E| / |E|。すべての位置を保持する圧縮手法では定義されません。</translation>
    </message>
    <message>
        <source>Evidence map coverage</source>
        <translation>エビデンスのマップ被覆率</translation>
    </message>
    <message>
        <source>The mean over (slot, evidence span) of whether at least half of the span is kept in the slot.</source>
        <translation>(スロット, エビデンススパン) ごとに、スパンの半分以上がそのスロットに保持されているかの平均。</translation>
    </message>
    <message>
        <source>Distractor retention ratio</source>
        <translation>紛らわしトークン保持比</translation>
    </message>
    <message>
        <source>D / (D + ERR), D the retention rate of the distractors: above 0.5 the compressor keeps what misleads rather than what answers.</source>
        <translation>D / (D + ERR)。D は紛らわしいトークンの保持率: 0.5 を超えると、圧縮手法は答えるものより惑わすものを残しています。</translation>
    </message>
    <message>
        <source>Likelihood drift</source>
        <translation>尤度のずれ</translation>
    </message>
    <message>
        <source>NLL of the gold answer under the compressed cache minus under FullCache, teacher-forced; GPR = exp(−ΔNLL).</source>
        <translation>正解回答の NLL の、圧縮キャッシュ下と FullCache 下との差 (teacher forcing)。GPR = exp(−ΔNLL)。</translation>
    </message>
    <message>
        <source>Evidence attention ratio</source>
        <translation>エビデンス注意比</translation>
    </message>
    <message>
        <source>The question&apos;s attention mass on the evidence, compressed over FullCache, from an eager-attention replay: below 0.5 the evidence is kept but not looked at.</source>
        <translation>質問のエビデンスへの注意量の、圧縮時と FullCache 時の比 (eager attention の再実行による)。0.5 未満ではエビデンスは保持されていても見られていません。</translation>
    </message>
    <message>
        <source>Global eviction rate</source>
        <translation>グローバル退避率</translation>
    </message>
    <message>
        <source>The share of answer-critical tokens that every head of a layer evicted: such a token has no route left.</source>
        <translation>層のすべてのヘッドが退避した回答に必要なトークンの割合: そのトークンには経路が残っていません。</translation>
    </message>
    <message>
        <source>Head consensus</source>
        <translation>ヘッドの合意度</translation>
    </message>
    <message>
        <source>Distinct per-head argmax positions over the heads of a layer: low when the heads agree.</source>
        <translation>層の各ヘッドの argmax 位置の種類数をヘッド数で割った値: ヘッドが一致すると低くなります。</translation>
    </message>
    <message>
        <source>Failure-set Jaccard</source>
        <translation>失敗集合の Jaccard</translation>
    </message>
    <message>
        <source>|A ∩ B| / |A ∪ B| of two compressors&apos; failing samples: 1 when they fail on the same samples.</source>
        <translation>2 つの圧縮手法の失敗サンプルの |A ∩ B| / |A ∪ B|: 同じサンプルで失敗するとき 1 です。</translation>
    </message>
    <message>
        <source>Low mapped coverage</source>
        <translation>低カバレッジ</translation>
    </message>
    <message>
        <source>Measured or projected ECov below 0.50: the evidence was evicted.</source>
        <translation>測定または投影した ECov が 0.50 未満: エビデンスが退避されました。</translation>
    </message>
    <message>
        <source>Partial mapped coverage</source>
        <translation>部分カバレッジ</translation>
    </message>
    <message>
        <source>Measured or projected ECov in [0.50, 0.90): part of the evidence was evicted.</source>
        <translation>測定または投影した ECov が [0.50, 0.90): エビデンスの一部が退避されました。</translation>
    </message>
    <message>
        <source>High coverage, likelihood drift</source>
        <translation>高カバレッジ・尤度ドリフト</translation>
    </message>
    <message>
        <source>ECov at least 0.90 and ΔNLL at least 1: the evidence is there, yet the gold answer became unlikely.</source>
        <translation>ECov が 0.90 以上かつ ΔNLL が 1 以上: エビデンスはあるのに、正解回答の尤度が下がりました。</translation>
    </message>
    <message>
        <source>Structural, likelihood drift</source>
        <translation>構造的・尤度ドリフト</translation>
    </message>
    <message>
        <source>Every position kept by construction (ThinK, quantization) and ΔNLL at least 1.</source>
        <translation>構造上すべての位置を保持 (ThinK、量子化) し、ΔNLL が 1 以上。</translation>
    </message>
    <message>
        <source>Low EAR candidate</source>
        <translation>低 EAR 候補</translation>
    </message>
    <message>
        <source>Evidence kept (ECov at least 0.90, or structurally) and a valid replay gives EAR below 0.50: kept but not attended to.</source>
        <translation>エビデンスは保持 (ECov が 0.90 以上、または構造上) され、有効な再実行で EAR が 0.50 未満: 保持されても注意されていません。</translation>
    </message>
    <message>
        <source>Decode/scorer candidate</source>
        <translation>デコード／採点候補</translation>
    </message>
    <message>
        <source>Evidence kept, |ΔNLL| at most 0.10 and top-k overlap at least 0.90: the answer went wrong while decoding, not in the cache.</source>
        <translation>エビデンスは保持され、|ΔNLL| が 0.10 以下、top-k 重なりが 0.90 以上: キャッシュではなくデコード中に誤りました。</translation>
    </message>
    <message>
        <source>Conflicting signals</source>
        <translation>矛盾する診断</translation>
    </message>
    <message>
        <source>More than one of the rules above fires.</source>
        <translation>上のルールのうち複数が該当します。</translation>
    </message>
    <message>
        <source>Ambiguous</source>
        <translation>判定不能</translation>
    </message>
    <message>
        <source>No rule fires.</source>
        <translation>どのルールも該当しません。</translation>
    </message>
</context>
<context>
    <name>kvl::HeadGridView</name>
    <message>
        <source>Question attention, every layer × kv-head</source>
        <translation>質問の注意（全層 × KV ヘッド）</translation>
    </message>
    <message>
        <source>No per-head attention drawn.
Choose &quot;Every layer × kv-head&quot; on a sample whose attention is stored per kv-head: one small panel per layer and kv-head, on one colour scale.</source>
        <translation>ヘッドごとの注意は描画されていません。
注意が KV ヘッドごとに保存されたサンプルで「全層 × KV ヘッド」を選ぶと、層と KV ヘッドごとに 1 つの小さなパネルを共通の色スケールで表示します。</translation>
    </message>
    <message>
        <source>This attention has no per-head values (the run stored the mean over kv-heads of each layer): there are no heads to draw.</source>
        <translation>この注意にはヘッドごとの値がありません（実行では各層の KV ヘッド平均のみを保存しました）。描画するヘッドがありません。</translation>
    </message>
    <message>
        <source>kv-head %1</source>
        <translation>KV ヘッド %1</translation>
    </message>
    <message>
        <source>Context position (max over %1 bins of %2 positions)</source>
        <translation>コンテキスト位置（%1 区間、各 %2 位置の最大値）</translation>
    </message>
    <message>
        <source>Context position</source>
        <translation>コンテキスト位置</translation>
    </message>
    <message>
        <source>Attention (one scale)</source>
        <translation>注意（共通スケール）</translation>
    </message>
</context>
<context>
    <name>kvl::HeadSelection</name>
    <message>
        <source>all layers, mean over kv-heads</source>
        <translation>全層、kv ヘッドの平均</translation>
    </message>
    <message>
        <source>layer %1, its kv-heads</source>
        <translation>層 %1 の kv ヘッド</translation>
    </message>
    <message>
        <source>layer %1, kv-head %2</source>
        <translation>層 %1、kv ヘッド %2</translation>
    </message>
    <message>
        <source>every layer × kv-head</source>
        <translation>全層 × kv ヘッド</translation>
    </message>
</context>
<context>
    <name>kvl::HeadSelector</name>
    <message>
        <source>All layers (mean over kv-heads)</source>
        <translation>全層（kv ヘッドの平均）</translation>
    </message>
    <message>
        <source>One layer&apos;s kv-heads</source>
        <translation>1 層の kv ヘッド</translation>
    </message>
    <message>
        <source>One kv-head</source>
        <translation>1 つの kv ヘッド</translation>
    </message>
    <message>
        <source>Every layer × kv-head</source>
        <translation>全層 × kv ヘッド</translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation>行:</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>kv-head</source>
        <translation>kv ヘッド</translation>
    </message>
    <message>
        <source>This attention has no per-head values: only the mean over kv-heads of each layer can be drawn.</source>
        <translation>このアテンションにはヘッドごとの値がありません。各層の kv ヘッド平均のみ描画できます。</translation>
    </message>
</context>
<context>
    <name>kvl::HeatmapView</name>
    <message>
        <source>Question attention over the context</source>
        <translation>コンテキストに対する質問のアテンション</translation>
    </message>
    <message>
        <source>No run open.
The heatmap shows where the question&apos;s attention goes in the context, per layer or head, with evidence spans and evicted entries marked.</source>
        <translation>実行結果が開かれていません。
ヒートマップは、質問のアテンションがコンテキストのどこに向かうかを層またはヘッドごとに示し、根拠スパンと退避されたエントリを強調します。</translation>
    </message>
    <message>
        <source>Context position (max over %1 bins of %2 positions)</source>
        <translation>コンテキスト位置（%1 区間、各 %2 位置の最大値）</translation>
    </message>
    <message>
        <source>Context position</source>
        <translation>コンテキスト位置</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>アテンション</translation>
    </message>
    <message>
        <source>evidence</source>
        <translation>根拠</translation>
    </message>
    <message>
        <source>head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>層</translation>
    </message>
    <message>
        <source> · evicted %1%</source>
        <translation> · 退避 %1%</translation>
    </message>
    <message>
        <source>Attention (scale shared)</source>
        <translation>アテンション（共通スケール）</translation>
    </message>
    <message>
        <source> (max of positions %1–%2)</source>
        <translation>（位置 %1–%2 の最大値）</translation>
    </message>
    <message>
        <source>%1 %2 · attention %3%4</source>
        <translation>%1 %2 · アテンション %3%4</translation>
    </message>
    <message>
        <source>Layer · kv-head</source>
        <translation>層 · kv ヘッド</translation>
    </message>
    <message>
        <source>kv-head</source>
        <translation>kv ヘッド</translation>
    </message>
    <message>
        <source>%1–%2 of %3</source>
        <translation>%3 中 %1–%2</translation>
    </message>
    <message>
        <source>greyed cells: evicted entries</source>
        <translation>灰色のセル: 退避されたエントリ</translation>
    </message>
    <message>
        <source>no entry evicted</source>
        <translation>退避されたエントリなし</translation>
    </message>
</context>
<context>
    <name>kvl::HelpMenu</name>
    <message>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About KVLens</source>
        <translation>KVLens について(&amp;A)</translation>
    </message>
    <message>
        <source>About KVLens</source>
        <translation>KVLens について</translation>
    </message>
    <message>
        <source>&lt;h3&gt;KVLens %1&lt;/h3&gt;&lt;p&gt;Visual analysis of KV-cache compression in long-context language models: why a compressed model fails, not only that it fails.&lt;/p&gt;&lt;p&gt;Runs happen in a separate &lt;tt&gt;kvlens-cli&lt;/tt&gt; process; this window only reads run files and draws.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;KVLens %1&lt;/h3&gt;&lt;p&gt;長文脈言語モデルにおける KV キャッシュ圧縮の可視化分析: 圧縮したモデルが失敗することだけでなく、なぜ失敗するのかを示します。&lt;/p&gt;&lt;p&gt;実行は別の &lt;tt&gt;kvlens-cli&lt;/tt&gt; プロセスで行われ、このウィンドウは実行ファイルを読み込んで描画するだけです。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Glossary</source>
        <translation>用語集(&amp;G)</translation>
    </message>
    <message>
        <source>Glossary</source>
        <translation>用語集</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Qt について(&amp;Q)</translation>
    </message>
</context>
<context>
    <name>kvl::MainWindow</name>
    <message>
        <source>Open a run file (File › Open run…) or start a new run.</source>
        <translation>実行ファイルを開く（ファイル › 実行結果を開く…）か、新しい実行を開始してください。</translation>
    </message>
    <message>
        <source>Open run</source>
        <translation>実行結果を開く</translation>
    </message>
    <message>
        <source>KVLens</source>
        <translation>KVLens</translation>
    </message>
    <message>
        <source>%1 — KVLens</source>
        <translation>%1 — KVLens</translation>
    </message>
    <message>
        <source>No run open</source>
        <translation>実行結果が開かれていません</translation>
    </message>
    <message>
        <source>%1 · model %2</source>
        <translation>%1 · モデル %2</translation>
    </message>
    <message>
        <source>Nothing to export: this view holds no data.</source>
        <translation>エクスポートするものがありません: このビューにはデータがありません。</translation>
    </message>
    <message>
        <source>Export figure</source>
        <translation>図をエクスポート</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)</source>
        <translation>PDF (*.pdf);;SVG (*.svg);;PNG 画像 (*.png)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 を保存しました</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>データをエクスポート</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Ratio:</source>
        <translation>圧縮率:</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 を開いています…</translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s), %1 rows</source>
        <translation>
            <numerusform>%n サンプル、%1 行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2, still running</source>
        <translation>%1: %2、実行中</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Refresh failed: %1</source>
        <translation>更新に失敗しました: %1</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>%1 を開けませんでした</translation>
    </message>
    <message>
        <source>Where multihop C→W rows leave the gold chain</source>
        <translation>マルチホップの C→W 行が正解の連鎖から外れる位置</translation>
    </message>
    <message>
        <source>%1: no sample finished; the file says &apos;running&apos; (a run cancelled before its first sample stays so)</source>
        <translation>%1: 完了したサンプルはありません。ファイルは「実行中」と記録しています（最初のサンプルの前に取り消された実行はこのままです）</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>ビュー</translation>
    </message>
    <message>
        <source>%1 › %2</source>
        <translation>%1 › %2</translation>
    </message>
    <message>
        <source>run: %1</source>
        <translation>実行: %1</translation>
    </message>
    <message>
        <source>configuration: %1</source>
        <translation>構成: %1</translation>
    </message>
    <message>
        <source>sample: all (mean)</source>
        <translation>サンプル: すべて（平均）</translation>
    </message>
    <message>
        <source>sample: %1</source>
        <translation>サンプル: %1</translation>
    </message>
    <message>
        <source>heads: %1</source>
        <translation>ヘッド: %1</translation>
    </message>
    <message>
        <source> (checking the rows&apos; checksums…)</source>
        <translation>（行のチェックサムを検査中…）</translation>
    </message>
    <message>
        <source> (%1 written before checksums, not verified)</source>
        <translation>（%1 はチェックサム導入前に書かれたため未検証）</translation>
    </message>
    <message>
        <source>sample: %1 (attention maps are drawn one sample at a time: the first; pick another in the Sample box)</source>
        <translation>サンプル: %1（アテンションマップは 1 サンプルずつ描画します: 先頭のサンプル。別のサンプルは「サンプル」欄で選びます）</translation>
    </message>
    <message>
        <source> · imported from %1</source>
        <translation> · %1 からインポート</translation>
    </message>
    <message numerus="yes">
        <source>, %n part(s) not in the source</source>
        <translation>
            <numerusform>、ソースにない部分 %n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Not in the source: %1</source>
        <translation>ソースにないもの: %1</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>概要</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>失敗</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>アテンション</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指示</translation>
    </message>
    <message>
        <source>Routing</source>
        <translation>経路</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>サンプル</translation>
    </message>
    <message>
        <source>Decoding</source>
        <translation>デコード</translation>
    </message>
    <message>
        <source>How accurate is each compressor at each ratio?</source>
        <translation>各圧縮手法は各圧縮率でどれだけ正確か？</translation>
    </message>
    <message>
        <source>Why do compressed rows fail, and do compressors fail on the same samples?</source>
        <translation>圧縮した行はなぜ失敗するのか、圧縮手法どうしは同じサンプルで失敗するのか？</translation>
    </message>
    <message>
        <source>Where does the question look, and does boosting the attention on the evidence repair a failure?</source>
        <translation>質問はどこを見ているのか、根拠へのアテンションを強めると失敗は直るのか？</translation>
    </message>
    <message>
        <source>Do the system prompt and the instructions survive compression?</source>
        <translation>システムプロンプトと指示は圧縮後も残るか？</translation>
    </message>
    <message>
        <source>Which entries survive in which layers and heads, and where is the cliff?</source>
        <translation>どのエントリがどの層・ヘッドで残るのか、崖はどこか？</translation>
    </message>
    <message>
        <source>What did the model see and answer, and how do two configurations or two runs compare?</source>
        <translation>モデルは何を見て何と答えたのか、2 つの構成や 2 つの実行はどう違うのか？</translation>
    </message>
    <message>
        <source>While the answer is decoded, does the cache keep (decode-time compression) or retrieve (offloading) the evidence each step needs?</source>
        <translation>回答のデコード中、各ステップに必要な根拠をキャッシュは保持 (デコード時圧縮) または取得 (オフロード) できるか？</translation>
    </message>
    <message>
        <source>Intervention repair rate: attention boost vs sham</source>
        <translation>介入の修復率: アテンション強化 対 偽介入</translation>
    </message>
    <message>
        <source>No interventions in this run.
Runs with interventions boost the attention on the evidence of low-EAR rows, and on random entries as a sham.</source>
        <translation>この実行には介入がありません。
介入を含む実行では、EAR の低い行の根拠へのアテンションを強化し、偽介入としてランダムなエントリを強化します。</translation>
    </message>
    <message>
        <source>Instruction span keep rate vs compression ratio</source>
        <translation>圧縮率に対する指示スパンの保持率</translation>
    </message>
    <message>
        <source>No instruction spans in this run.
Runs of the instructions suite (or samples with instruction spans) show how much of each instruction survives, by its order in the prompt.</source>
        <translation>この実行には指示スパンがありません。
指示スイート（または指示スパンを持つサンプル）の実行では、プロンプト内の順序ごとに各指示がどれだけ残るかを示します。</translation>
    </message>
    <message>
        <source>System-prompt leakage vs compression ratio</source>
        <translation>圧縮率に対するシステムプロンプトの漏洩</translation>
    </message>
    <message>
        <source>No leakage measured in this run.
Runs of the instructions suite measure how often the answer leaks the system prompt.</source>
        <translation>この実行では漏洩が測定されていません。
指示スイートの実行では、回答がシステムプロンプトを漏らす頻度を測定します。</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>正答率</translation>
    </message>
    <message>
        <source>Outcome grid</source>
        <translation>結果グリッド</translation>
    </message>
    <message>
        <source>Taxonomy</source>
        <translation>分類</translation>
    </message>
    <message>
        <source>Chain breaks</source>
        <translation>連鎖の断絶</translation>
    </message>
    <message>
        <source>Failure overlap</source>
        <translation>失敗の重なり</translation>
    </message>
    <message>
        <source>Failure sets</source>
        <translation>失敗集合</translation>
    </message>
    <message>
        <source>Suite failures</source>
        <translation>スイート別の失敗</translation>
    </message>
    <message>
        <source>Question attention</source>
        <translation>質問のアテンション</translation>
    </message>
    <message>
        <source>Interventions</source>
        <translation>介入</translation>
    </message>
    <message>
        <source>Span keep</source>
        <translation>スパン保持</translation>
    </message>
    <message>
        <source>Leakage</source>
        <translation>漏洩</translation>
    </message>
    <message>
        <source>Eviction map</source>
        <translation>退避マップ</translation>
    </message>
    <message>
        <source>GER &amp; consensus</source>
        <translation>GER と合意度</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>サンプル</translation>
    </message>
    <message>
        <source>Compare samples</source>
        <translation>サンプルの比較</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>実行の比較</translation>
    </message>
    <message>
        <source>Decoding curves</source>
        <translation>デコード曲線</translation>
    </message>
    <message>
        <source>Retrieval map</source>
        <translation>検索マップ</translation>
    </message>
    <message>
        <source>Single column (3.5 in)</source>
        <translation>1 段組 (3.5 インチ)</translation>
    </message>
    <message>
        <source>Double column (7 in)</source>
        <translation>2 段組 (7 インチ)</translation>
    </message>
    <message>
        <source>As on screen</source>
        <translation>画面と同じ</translation>
    </message>
    <message>
        <source>Figure size:</source>
        <translation>図のサイズ:</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 件中 %1 件</translation>
    </message>
    <message>
        <source>FullCache right on %1: little to diagnose, since a C→W row needs FullCache right first. Are the contexts past the model&apos;s trained length, or the task beyond it?</source>
        <translation>FullCache の正解は %1: C→W 行には FullCache の正解が前提のため、診断できることはわずかです。コンテキストがモデルの学習長を超えているか、タスクがモデルの能力を超えていませんか?</translation>
    </message>
</context>
<context>
    <name>kvl::MissingRowsText</name>
    <message numerus="yes">
        <source>%n sample(s) skipped under every configuration: %1</source>
        <translation>
            <numerusform>%n サンプルはすべての構成でスキップ: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) skipped: %1</source>
        <translation>
            <numerusform>%n サンプルをスキップ: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) failed under %1</source>
        <translation>
            <numerusform>%1 で %n 行が失敗</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n row(s) failed under %1 configurations</source>
        <translation>
            <numerusform>%1 個の構成で %n 行が失敗</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s) skipped for %1 reasons (the tool tip lists them), the first: %2</source>
        <translation>
            <numerusform>%n サンプルを %1 種類の理由でスキップ（一覧はツールチップ）、最初の理由: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s) without a row: %2</source>
        <translation>
            <numerusform>%1: 行のない %n サンプル: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s) not run (unsupported): %2</source>
        <translation>
            <numerusform>%1: 未実行の %n サンプル（非対応）: %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s) not run: %1 is unsupported</source>
        <translation>
            <numerusform>%n セル未実行: %1 は非対応</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s) not run under %1 unsupported configurations</source>
        <translation>
            <numerusform>%1 個の非対応構成で %n セル未実行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kvl::NewRunChoices</name>
    <message>
        <source>Choose the bundled model or a model directory.</source>
        <translation>同梱モデルかモデルのフォルダを選んでください。</translation>
    </message>
    <message>
        <source>Choose a built-in suite or add a JSONL file.</source>
        <translation>組み込みスイートを選ぶか、JSONL ファイルを追加してください。</translation>
    </message>
    <message>
        <source>Samples per suite must be at least 1.</source>
        <translation>スイートあたりのサンプル数は 1 以上にしてください。</translation>
    </message>
    <message>
        <source>%1: no such file.</source>
        <translation>%1: ファイルがありません。</translation>
    </message>
    <message>
        <source>%1 is listed twice.</source>
        <translation>%1 が 2 回指定されています。</translation>
    </message>
    <message>
        <source>An empty press spec.</source>
        <translation>プレスの指定が空です。</translation>
    </message>
    <message>
        <source>Unknown intervention target &apos;%1&apos;.</source>
        <translation>介入の対象 &apos;%1&apos; は不明です。</translation>
    </message>
    <message>
        <source>The boost factor must be positive.</source>
        <translation>ブースト係数は正の値にしてください。</translation>
    </message>
    <message>
        <source>Unknown attention storage &apos;%1&apos;.</source>
        <translation>アテンションの保存方法 &apos;%1&apos; は不明です。</translation>
    </message>
    <message>
        <source>Choose a run file to write.</source>
        <translation>書き込む実行ファイルを選んでください。</translation>
    </message>
    <message>
        <source>%1 is a folder; choose a file.</source>
        <translation>%1 はフォルダです。ファイルを選んでください。</translation>
    </message>
    <message>
        <source>Folder %1 does not exist.</source>
        <translation>フォルダ %1 がありません。</translation>
    </message>
    <message>
        <source>suites with different sample counts, lengths or variants</source>
        <translation>サンプル数・長さ・バリアントが異なるスイート</translation>
    </message>
    <message>
        <source>a suite seed other than the run&apos;s seed</source>
        <translation>実行のシードと異なるスイートのシード</translation>
    </message>
    <message>
        <source>a press named apart from its spec (%1)</source>
        <translation>指定とは別の名前を付けたプレス（%1）</translation>
    </message>
    <message>
        <source>interventions other than boost and sham on one target</source>
        <translation>1 つの対象に対する boost と sham 以外の介入</translation>
    </message>
    <message>
        <source>masks stored for some rows only</source>
        <translation>一部の行だけに保存されたマスク</translation>
    </message>
    <message>
        <source>a chat template or its variables</source>
        <translation>チャットテンプレートまたはその変数</translation>
    </message>
</context>
<context>
    <name>kvl::NewRunDialog</name>
    <message>
        <source>New run</source>
        <translation>新しい実行</translation>
    </message>
    <message>
        <source>Samples (*.jsonl);;All files (*)</source>
        <translation>サンプル (*.jsonl);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>Ratios:</source>
        <translation>圧縮率:</translation>
    </message>
    <message>
        <source>KVLens runs (*.kvl);;All files (*)</source>
        <translation>KVLens 実行ファイル (*.kvl);;すべてのファイル (*)</translation>
    </message>
    <message>
        <source>%v / %m samples</source>
        <translation>%v / %m サンプル</translation>
    </message>
    <message>
        <source>Not started</source>
        <translation>未開始</translation>
    </message>
    <message>
        <source>Messages of kvlens-cli appear here.</source>
        <translation>kvlens-cli のメッセージがここに表示されます。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>開始</translation>
    </message>
    <message>
        <source>Cancel run</source>
        <translation>実行を取り消す</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <source>Starting %1…</source>
        <translation>%1 を開始しています…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>取り消しています…</translation>
    </message>
    <message>
        <source>A run is in progress: cancel it before closing.</source>
        <translation>実行中です: 閉じる前に取り消してください。</translation>
    </message>
    <message>
        <source>%1 of %2 samples · elapsed %3 · remaining %4</source>
        <translation>%2 サンプル中 %1 · 経過 %3 · 残り %4</translation>
    </message>
    <message>
        <source> · accuracy %1</source>
        <translation> · 正答率 %1</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>完了しました。</translation>
    </message>
    <message>
        <source>Presses</source>
        <translation>プレス</translation>
    </message>
    <message>
        <source>The same run from a shell, e.g. on a server</source>
        <translation>シェルから同じ実行を行うコマンド（サーバーなどで）</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <source>Command:</source>
        <translation>コマンド:</translation>
    </message>
    <message>
        <source>The built-in suites are not available: %1</source>
        <translation>組み込みスイートを利用できません: %1</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>モデル</translation>
    </message>
    <message>
        <source>Bundled model (kvlens-tiny)</source>
        <translation>同梱モデル（kvlens-tiny）</translation>
    </message>
    <message>
        <source>Hugging Face directory:</source>
        <translation>Hugging Face のフォルダ:</translation>
    </message>
    <message>
        <source>folder with config.json, *.safetensors, tokenizer.json</source>
        <translation>config.json、*.safetensors、tokenizer.json を含むフォルダ</translation>
    </message>
    <message>
        <source>Model directory</source>
        <translation>モデルのフォルダ</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>サンプル</translation>
    </message>
    <message>
        <source>Context length in tokens of the model: MIN:MAX, or N for exactly N</source>
        <translation>モデルのトークン数で数えたコンテキスト長: MIN:MAX、またはちょうど N なら N</translation>
    </message>
    <message>
        <source>Samples per suite:</source>
        <translation>スイートあたりのサンプル数:</translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation>トークン数:</translation>
    </message>
    <message>
        <source>Variant:</source>
        <translation>バリアント:</translation>
    </message>
    <message>
        <source>Built-in suites (generated for the model&apos;s tokenizer):</source>
        <translation>組み込みスイート（モデルのトークナイザーに合わせて生成）:</translation>
    </message>
    <message>
        <source>JSONL files:</source>
        <translation>JSONL ファイル:</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>追加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>Samples (JSONL)</source>
        <translation>サンプル（JSONL）</translation>
    </message>
    <message>
        <source>Ratios and options</source>
        <translation>圧縮率とオプション</translation>
    </message>
    <message>
        <source>Compression ratios, comma-separated: the share of the context&apos;s KV entries removed, each in [0, 1)</source>
        <translation>圧縮率（カンマ区切り）: コンテキストの KV エントリのうち削除する割合、それぞれ [0, 1) の範囲</translation>
    </message>
    <message>
        <source>retained (default)</source>
        <translation>retained（既定）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <source>Rows that boost and sham re-answer: retained = C→W rows whose evidence is retained (EAR &lt; 0.5); low_ear = any C→W row with EAR &lt; 0.5; c_to_w; all; none</source>
        <translation>boost と sham で答え直す行: retained = 根拠が保持されている C→W 行（EAR &lt; 0.5）、low_ear = EAR &lt; 0.5 のすべての C→W 行、c_to_w、all、none</translation>
    </message>
    <message>
        <source>Boost factor on the evidence&apos;s attention</source>
        <translation>根拠へのアテンションに掛けるブースト係数</translation>
    </message>
    <message>
        <source>β</source>
        <translation>β</translation>
    </message>
    <message>
        <source>Interventions:</source>
        <translation>介入:</translation>
    </message>
    <message>
        <source>FullCache rows and failures</source>
        <translation>FullCache の行と失敗</translation>
    </message>
    <message>
        <source>every row (larger file)</source>
        <translation>すべての行（ファイルが大きくなります）</translation>
    </message>
    <message>
        <source>Store attention of:</source>
        <translation>アテンションを保存する行:</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自動</translation>
    </message>
    <message>
        <source>Decode limit; auto = gold answer length + 16</source>
        <translation>生成の上限。自動 = 正解の長さ + 16</translation>
    </message>
    <message>
        <source>all</source>
        <translation>すべて</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>シード</translation>
    </message>
    <message>
        <source>New tokens</source>
        <translation>生成トークン数</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>スレッド数</translation>
    </message>
    <message>
        <source>Run file</source>
        <translation>実行ファイル</translation>
    </message>
    <message>
        <source>where the run is written (.kvl)</source>
        <translation>実行を書き込む場所（.kvl）</translation>
    </message>
    <message>
        <source>Use its settings</source>
        <translation>その設定を使う</translation>
    </message>
    <message>
        <source>Fill the form from the experiment this file holds, so Start resumes it</source>
        <translation>このファイルが保持する実験の設定でフォームを埋め、開始で再開できるようにします</translation>
    </message>
    <message>
        <source>Choose a model directory.</source>
        <translation>モデルのフォルダを選んでください。</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s)</source>
        <translation>
            <numerusform>%1: %n サンプル</numerusform>
        </translation>
    </message>
    <message>
        <source>each sample draws one</source>
        <translation>サンプルごとに 1 つを抽選</translation>
    </message>
    <message>
        <source>Unknown suite &apos;%1&apos;.</source>
        <translation>スイート &apos;%1&apos; は不明です。</translation>
    </message>
    <message>
        <source>%1 holds another experiment (its spec differs in &apos;%2&apos;): choose a new file, or use its settings to resume it.</source>
        <translation>%1 には別の実験が入っています（&apos;%2&apos; が異なります）: 新しいファイルを選ぶか、その設定を使って再開してください。</translation>
    </message>
    <message>
        <source>%1 exists and is not a run file (%2): choose a new file.</source>
        <translation>%1 は既に存在し、実行ファイルではありません（%2）: 新しいファイルを選んでください。</translation>
    </message>
    <message>
        <source>Checking the model…</source>
        <translation>モデルを確認しています…</translation>
    </message>
    <message>
        <source>%1: checking…</source>
        <translation>%1: 確認しています…</translation>
    </message>
    <message>
        <source>%1 suite samples and the JSONL files&apos; samples</source>
        <translation>スイートのサンプル %1 件と JSONL ファイルのサンプル</translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n サンプル</numerusform>
        </translation>
    </message>
    <message>
        <source>No press: FullCache rows only.</source>
        <translation>プレスなし: FullCache の行のみです。</translation>
    </message>
    <message>
        <source>Presses: %1</source>
        <translation>プレス: %1</translation>
    </message>
    <message>
        <source>A new run file.</source>
        <translation>新しい実行ファイルです。</translation>
    </message>
    <message numerus="yes">
        <source>Holds this experiment, finished (%n sample(s)); starting again only re-reads it.</source>
        <translation>
            <numerusform>この実験が完了した状態で入っています（%n サンプル）。もう一度開始しても読み直すだけです。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Holds this experiment with %n sample(s) finished: Start resumes it.</source>
        <translation>
            <numerusform>この実験が %n サンプル終わった状態で入っています: 開始で再開します。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Holds another experiment (%n sample(s); its spec differs in &apos;%1&apos;): choose a new file, or use its settings to resume it.</source>
        <translation>
            <numerusform>別の実験が入っています（%n サンプル、&apos;%1&apos; が異なります）: 新しいファイルを選ぶか、その設定を使って再開してください。</numerusform>
        </translation>
    </message>
    <message>
        <source>Exists and is not a run file (%1): choose a new file.</source>
        <translation>既に存在し、実行ファイルではありません（%1）: 新しいファイルを選んでください。</translation>
    </message>
    <message>
        <source>An existing file: it is compared with the experiment once the form is complete.</source>
        <translation>既存のファイルです: フォームがそろった時点で実験と照合します。</translation>
    </message>
    <message>
        <source>The file&apos;s spec uses what this form cannot set (%1); resume it with kvlens-cli run --spec.</source>
        <translation>このファイルの指定にはこのフォームで設定できない項目があります（%1）。kvlens-cli run --spec で再開してください。</translation>
    </message>
    <message>
        <source>Still checking the choices with kvlens-cli; start again in a moment.</source>
        <translation>kvlens-cli で選択内容を確認中です。少し待ってからもう一度開始してください。</translation>
    </message>
    <message>
        <source>Not started: %1</source>
        <translation>開始していません: %1</translation>
    </message>
    <message>
        <source>Resuming %1…</source>
        <translation>%1 を再開しています…</translation>
    </message>
    <message>
        <source> (done at %1)</source>
        <translation>（%1 に完了予定）</translation>
    </message>
    <message numerus="yes">
        <source>Cancelled: %n finished sample(s) are in the run file; Resume continues it.</source>
        <translation>
            <numerusform>取り消しました: 終わった %n サンプルは実行ファイルにあります。再開で続きを実行します。</numerusform>
        </translation>
    </message>
    <message>
        <source>kvlens-cli stopped with exit code %1; see the messages below.</source>
        <translation>kvlens-cli が終了コード %1 で停止しました。下のメッセージを参照してください。</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
    <message>
        <source>Each sample runs under FullCache and every press × ratio in a kvlens-cli child process; a cancelled run resumes from its file.</source>
        <translation>各サンプルは kvlens-cli の子プロセスで FullCache とすべてのプレス × 比率で実行されます。取り消した実行はファイルから再開できます。</translation>
    </message>
    <message>
        <source>Checking the run file…</source>
        <translation>実行ファイルを確認しています…</translation>
    </message>
</context>
<context>
    <name>kvl::OutcomeGridView</name>
    <message>
        <source>Outcomes by compressor and compression ratio</source>
        <translation>圧縮手法と圧縮率ごとの結果</translation>
    </message>
    <message>
        <source>C→W failures by suite and compression ratio</source>
        <translation>スイートと圧縮率ごとの C→W 失敗</translation>
    </message>
    <message>
        <source>No compressed rows.
For every compressor and compression ratio, this view shows the mean task score and the C→W rate (the share of the samples FullCache answers correctly that the compressed cache gets wrong), pooled over the run&apos;s suites, with the counts behind each.</source>
        <translation>圧縮された行がありません。
このビューは圧縮手法と圧縮率ごとに、実行の全スイートをまとめた平均タスクスコアと C→W 率 (FullCache が正解するサンプルのうち圧縮キャッシュが誤答する割合) を、それぞれの件数とともに示します。</translation>
    </message>
    <message>
        <source>No compressed rows.
For every suite and compression ratio, this view shows the C→W rate averaged over the compressors, and how much two compressors&apos; failures overlap (Jaccard of their C→W samples).</source>
        <translation>圧縮された行がありません。
このビューはスイートと圧縮率ごとに、圧縮手法全体で平均した C→W 率と、2 つの圧縮手法の失敗の重なり (C→W サンプルの Jaccard) を示します。</translation>
    </message>
    <message>
        <source>Hover a cell for the counts behind its value. Colours are on fixed ranges; grey cells have no value.</source>
        <translation>セルにカーソルを合わせると値の元になった件数を表示します。色の範囲は固定です。灰色のセルには値がありません。</translation>
    </message>
    <message>
        <source>Compression ratio (share of context KV entries removed)</source>
        <translation>圧縮率（削除されたコンテキスト KV エントリの割合）</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>該当なし</translation>
    </message>
    <message>
        <source>%1 at ratio %2</source>
        <translation>%1（圧縮率 %2）</translation>
    </message>
    <message>
        <source>%1
%2: n/a (%3)</source>
        <translation>%1
%2: なし (%3)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1
%2: %3%4
%5</source>
        <translation>%1
%2: %3%4
%5</translation>
    </message>
</context>
<context>
    <name>kvl::OverlapLists</name>
    <message>
        <source>Failures at ratio %1: %2 vs %3 (loading…)</source>
        <translation>圧縮率 %1 の失敗: %2 と %3（読み込み中…）</translation>
    </message>
    <message>
        <source>Failures (C→W) at ratio %1: %2 vs %3</source>
        <translation>圧縮率 %1 の失敗（C→W）: %2 と %3</translation>
    </message>
    <message numerus="yes">
        <source>%1 only: %n sample(s)</source>
        <translation>
            <numerusform>%1 のみ: %n サンプル</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Both: %n sample(s)</source>
        <translation>
            <numerusform>両方: %n サンプル</numerusform>
        </translation>
    </message>
    <message>
        <source>Click a cell of the overlap matrix to list the failures of that pair side by side.</source>
        <translation>重なり行列のセルをクリックすると、その組の失敗が横に並んで表示されます。</translation>
    </message>
    <message>
        <source>A only</source>
        <translation>A のみ</translation>
    </message>
    <message>
        <source>Both</source>
        <translation>両方</translation>
    </message>
    <message>
        <source>B only</source>
        <translation>B のみ</translation>
    </message>
</context>
<context>
    <name>kvl::OverlapMatrixView</name>
    <message>
        <source>Failure-set overlap (Jaccard)</source>
        <translation>失敗集合の重なり（Jaccard）</translation>
    </message>
    <message>
        <source>No run open.
The overlap matrix compares which rows fail under each pair of compressors: same mean accuracy can hide different failures.</source>
        <translation>実行結果が開かれていません。
重なり行列は、圧縮手法の各組でどの行が失敗するかを比較します。平均正答率が同じでも、失敗する行は異なることがあります。</translation>
    </message>
    <message>
        <source>Compressor B</source>
        <translation>圧縮手法 B</translation>
    </message>
    <message>
        <source>Compressor A</source>
        <translation>圧縮手法 A</translation>
    </message>
    <message>
        <source>Jaccard</source>
        <translation>Jaccard</translation>
    </message>
    <message>
        <source>%1 vs %2: Jaccard %3 · %1 only %4 · %2 only %5 · both %6</source>
        <translation>%1 対 %2: Jaccard %3 · %1 のみ %4 · %2 のみ %5 · 両方 %6</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>該当なし</translation>
    </message>
    <message>
        <source>Hover a cell for the A-only / B-only / both breakdown; click to select the pair.</source>
        <translation>セルにカーソルを合わせると A のみ／B のみ／両方の内訳を表示します。クリックでその組を選択します。</translation>
    </message>
    <message>
        <source>%1 at ratio %2</source>
        <translation>%1（圧縮率 %2）</translation>
    </message>
    <message numerus="yes">
        <source> · greyed: %n failure(s) in all, too few to compare</source>
        <translation>
            <numerusform> · 灰色: 失敗は合計 %n 件で、比較するには少なすぎます</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kvl::OverlapPage</name>
    <message>
        <source>Failures at ratio %1: %2 vs %3</source>
        <translation>圧縮率 %1 での失敗: %2 対 %3</translation>
    </message>
    <message>
        <source>no failures to overlap</source>
        <translation>重ねる失敗がありません</translation>
    </message>
</context>
<context>
    <name>kvl::PlotView</name>
    <message>
        <source>the %1 view holds no data to export</source>
        <translation>%1 ビューにはエクスポートするデータがありません</translation>
    </message>
    <message>
        <source>none of the views holds data to export</source>
        <translation>書き出すデータを持つビューがありません</translation>
    </message>
</context>
<context>
    <name>kvl::PooledMapView</name>
    <message>
        <source>position %1 (the run stores no token text)</source>
        <translation>位置 %1（この実行はトークンのテキストを保存していません）</translation>
    </message>
    <message>
        <source>position %1 (a token without text)</source>
        <translation>位置 %1（テキストのないトークン）</translation>
    </message>
    <message>
        <source>“%1” at position %2</source>
        <translation>位置 %2 の「%1」</translation>
    </message>
    <message>
        <source>span %1</source>
        <translation>スパン %1</translation>
    </message>
    <message>
        <source>click: zoom to this span</source>
        <translation>クリック: このスパンにズーム</translation>
    </message>
    <message>
        <source>wheel: zoom · drag: pan · right-drag or Shift+drag: zoom to a range · + − 0 ← → · double-click: whole context</source>
        <translation>ホイール: ズーム · ドラッグ: 移動 · 右ドラッグまたは Shift+ドラッグ: 範囲にズーム · + − 0 ← → · ダブルクリック: コンテキスト全体</translation>
    </message>
</context>
<context>
    <name>kvl::PressParametersEditor</name>
    <message>
        <source>Range: %1 to %2</source>
        <translation>範囲: %1 から %2</translation>
    </message>
    <message>
        <source>e.g. composed(streamingllm+knorm)</source>
        <translation>例: composed(streamingllm+knorm)</translation>
    </message>
    <message>
        <source>Press specs the list does not hold, comma-separated (name[(inner)][:param=value,...]; see kvlens-cli presses)</source>
        <translation>一覧にないプレスの指定（カンマ区切り。name[(inner)][:param=value,...]、kvlens-cli presses を参照）</translation>
    </message>
    <message>
        <source>Other specs:</source>
        <translation>その他の指定:</translation>
    </message>
    <message>
        <source>The list of presses is not available (%1); write press specs below.</source>
        <translation>プレスの一覧を取得できません（%1）。下にプレスの指定を書いてください。</translation>
    </message>
    <message>
        <source>%1: name the presses it wraps, e.g. %1(snapkv)</source>
        <translation>%1: 包むプレスを指定してください（例: %1(snapkv)）</translation>
    </message>
    <message>
        <source>%1: choose a scorer</source>
        <translation>%1: スコアラーを選んでください</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a press spec (name[(inner)][:param=value,...])</source>
        <translation>&apos;%1&apos; はプレスの指定ではありません（name[(inner)][:param=value,...]）</translation>
    </message>
    <message>
        <source>(its default)</source>
        <translation>（既定値）</translation>
    </message>
    <message>
        <source>Scorer:</source>
        <translation>スコアラー:</translation>
    </message>
    <message>
        <source>e.g. snapkv or streamingllm+knorm</source>
        <translation>例: snapkv や streamingllm+knorm</translation>
    </message>
    <message>
        <source>Presses:</source>
        <translation>プレス:</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（なし）</translation>
    </message>
    <message>
        <source>No parameters.</source>
        <translation>パラメータはありません。</translation>
    </message>
</context>
<context>
    <name>kvl::RatioCurvesView</name>
    <message>
        <source>n = %1</source>
        <translation>n = %1</translation>
    </message>
</context>
<context>
    <name>kvl::RatioPlotView</name>
    <message>
        <source>Compression ratio (share of context KV entries removed)</source>
        <translation>圧縮率（削除されたコンテキスト KV エントリの割合）</translation>
    </message>
    <message>
        <source>n = %1</source>
        <translation>n = %1</translation>
    </message>
    <message>
        <source>n = %1–%2</source>
        <translation>n = %1～%2</translation>
    </message>
    <message>
        <source>%1 at ratio %2: %3</source>
        <translation>%1（圧縮率 %2）: %3</translation>
    </message>
    <message>
        <source> (%1 of %2)</source>
        <translation>（%2 件中 %1 件）</translation>
    </message>
    <message>
        <source> (n = %1)</source>
        <translation>（n = %1）</translation>
    </message>
    <message>
        <source>95% interval %1–%2</source>
        <translation>95% 区間 %1～%2</translation>
    </message>
    <message>
        <source>bars: 95% intervals</source>
        <translation>エラーバー: 95% 区間</translation>
    </message>
    <message>
        <source>series at one ratio drawn slightly apart, so equal values stay visible</source>
        <translation>同じ圧縮率の系列は、値が等しくても見えるよう少しずらして描画</translation>
    </message>
    <message>
        <source>%1 at %2 %3: %4</source>
        <comment>series at step 2: value</comment>
        <translation>%1 (%2 %3): %4</translation>
    </message>
    <message>
        <source>Hover a point for its n</source>
        <translation>点にカーソルを合わせると n を表示します</translation>
    </message>
</context>
<context>
    <name>kvl::ResultRowsModel</name>
    <message>
        <source>Group</source>
        <translation>グループ</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>サンプル</translation>
    </message>
    <message>
        <source>Suite</source>
        <translation>スイート</translation>
    </message>
    <message>
        <source>Configuration</source>
        <translation>構成</translation>
    </message>
    <message>
        <source>Transition</source>
        <translation>遷移</translation>
    </message>
    <message>
        <source>Signature</source>
        <translation>シグネチャ</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>ECov</source>
        <translation>ECov</translation>
    </message>
    <message>
        <source>ERR</source>
        <translation>ERR</translation>
    </message>
    <message>
        <source>ΔNLL</source>
        <translation>ΔNLL</translation>
    </message>
    <message>
        <source>EAR</source>
        <translation>EAR</translation>
    </message>
    <message>
        <source>Gold</source>
        <translation>正解</translation>
    </message>
    <message>
        <source>FullCache answer</source>
        <translation>FullCache の回答</translation>
    </message>
</context>
<context>
    <name>kvl::RetrievalMapPage</name>
    <message>
        <source>Row:</source>
        <translation>行:</translation>
    </message>
    <message>
        <source>sample %1</source>
        <translation>サンプル %1</translation>
    </message>
    <message>
        <source>Retrieval map · %1 · %2</source>
        <translation>検索マップ · %1 · %2</translation>
    </message>
</context>
<context>
    <name>kvl::RetrievalMapView</name>
    <message>
        <source>Retrieval map: decoding step × context position</source>
        <translation>検索マップ: デコードステップ × コンテキスト位置</translation>
    </message>
    <message>
        <source>No retrieval map for this row.
Runs of offloading presses (shadowkv, quest, yakv) store, per decoding step, which context positions each step retrieved; pick such a row.</source>
        <translation>この行には検索マップがありません。
オフロード系プレス（shadowkv、quest、yakv）の実行は、デコードステップごとに取得したコンテキスト位置を保存します。そのような行を選んでください。</translation>
    </message>
    <message>
        <source>Context position (mean over bins of %1 positions)</source>
        <translation>コンテキスト位置（%1 位置ごとの平均）</translation>
    </message>
    <message>
        <source>Context position</source>
        <translation>コンテキスト位置</translation>
    </message>
    <message>
        <source> · %1–%2 of %3</source>
        <translation> · %3 中 %1–%2</translation>
    </message>
    <message>
        <source>Decoding step (0 = question)</source>
        <translation>デコードステップ（0 = 質問）</translation>
    </message>
    <message>
        <source>Retrieved share of selections</source>
        <translation>選択のうち取得された割合</translation>
    </message>
    <message>
        <source> (mean of positions %1–%2)</source>
        <translation>（位置 %1–%2 の平均）</translation>
    </message>
    <message>
        <source>step %1 · retrieved share %2%3</source>
        <translation>ステップ %1 · 取得割合 %2%3</translation>
    </message>
    <message>
        <source> · evidence recall of the step %1</source>
        <translation> · このステップの根拠再現率 %1</translation>
    </message>
    <message>
        <source>%1 (recall %2)</source>
        <translation>%1（再現率 %2）</translation>
    </message>
    <message>
        <source> · writes %1</source>
        <translation> · %1 を書き出し</translation>
    </message>
</context>
<context>
    <name>kvl::RowQueries</name>
    <message>
        <source>%1 only</source>
        <translation>%1 のみ</translation>
    </message>
    <message>
        <source>both</source>
        <translation>両方</translation>
    </message>
</context>
<context>
    <name>kvl::RowsDock</name>
    <message>
        <source>Rows</source>
        <translation>行</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n row(s)</source>
        <translation>
            <numerusform>%1: %n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>kvl::RowsPanel</name>
    <message>
        <source>%1 (loading…)</source>
        <translation>%1（読み込み中…）</translation>
    </message>
    <message>
        <source>Click a taxonomy or chain-break bar, a failure-overlap cell or a failure-set (UpSet) column to list its rows.</source>
        <translation>分類または連鎖の断絶の棒グラフ、失敗の重なりのセル、あるいは失敗集合（UpSet）の列をクリックすると、その行を一覧表示します。</translation>
    </message>
</context>
<context>
    <name>kvl::RunComparePanel</name>
    <message>
        <source>Run A:</source>
        <translation>実行 A:</translation>
    </message>
    <message>
        <source>Run B:</source>
        <translation>実行 B:</translation>
    </message>
    <message>
        <source>Export table (CSV)…</source>
        <translation>表をエクスポート（CSV）…</translation>
    </message>
    <message>
        <source>Open a second run (File › Open run…) to compare two runs.</source>
        <translation>2 つの実行を比較するには、もう 1 つの実行を開いてください（ファイル › 実行を開く…）。</translation>
    </message>
    <message>
        <source>Accuracy of two runs over their matched samples</source>
        <translation>2 つの実行の正解率（対応したサンプル）</translation>
    </message>
    <message>
        <source>Samples not compared: the same id naming other content in the two runs (never paired), and samples of one run only</source>
        <translation>比較しないサンプル: 2 つの実行で同じ ID が別の内容を指すもの（対応付けない）と、片方の実行にしかないもの</translation>
    </message>
    <message>
        <source>Export comparison table</source>
        <translation>比較表をエクスポート</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <source>comparison of %1 and %2</source>
        <translation>%1 と %2 の比較</translation>
    </message>
    <message>
        <source>Pick two different runs to compare.</source>
        <translation>比較する 2 つの異なる実行を選んでください。</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>比較中…</translation>
    </message>
    <message>
        <source>%1 vs %2 — samples: %3</source>
        <translation>%1 と %2 — サンプル: %3</translation>
    </message>
    <message>
        <source>mismatched %1</source>
        <translation>不一致 %1</translation>
    </message>
    <message>
        <source>only in A: %1</source>
        <translation>A のみ: %1</translation>
    </message>
    <message>
        <source>only in B: %1</source>
        <translation>B のみ: %1</translation>
    </message>
    <message>
        <source>No configuration has rows for a matched sample in both runs.
%1</source>
        <translation>対応したサンプルについて両方の実行に行がある構成はありません。
%1</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Open two runs to overlay their accuracy.
Samples are paired by content (suite, context, question, answer), never by id alone; runs that share no sample compare unpaired.</source>
        <translation>2 つの実行を開くと正解率を重ねて表示します。
サンプルは内容（スイート、コンテキスト、質問、答え）で対応付け、ID だけでは対応付けません。共通のサンプルがない実行は対応なしで比較します。</translation>
    </message>
</context>
<context>
    <name>kvl::RunComparisonViews</name>
    <message>
        <source>Accuracy (matched samples)</source>
        <translation>正解率（対応したサンプル）</translation>
    </message>
    <message>
        <source>over the %1 samples both runs hold (matched by content; mismatched and one-run samples left out) · Wilson score intervals</source>
        <translation>両方の実行にある %1 サンプルで集計（内容で対応付け。不一致と片方のみのサンプルは除外）· Wilson スコア区間</translation>
    </message>
    <message>
        <source>unpaired: the runs share no sample (%1) · each over its own samples</source>
        <translation>対応なし：共通のサンプルなし (%1) · それぞれ自身のサンプルで集計</translation>
    </message>
    <message>
        <source>Accuracy (unpaired)</source>
        <translation>正解率（対応なし）</translation>
    </message>
    <message>
        <source>unpaired: each run over its own samples (up to %1 in A, %2 in B; no sample in both) · Wilson score intervals</source>
        <translation>対応なし：各実行はそれぞれのサンプルで集計（A は最大 %1、B は最大 %2、共通サンプルなし） · Wilson スコア区間</translation>
    </message>
</context>
<context>
    <name>kvl::RunListDock</name>
    <message>
        <source>Runs</source>
        <translation>実行結果</translation>
    </message>
    <message>
        <source>Open run files; double-click to show one</source>
        <translation>開いている実行ファイル。ダブルクリックで表示します</translation>
    </message>
</context>
<context>
    <name>kvl::RunProcess</name>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>%1 を開始できません: %2</translation>
    </message>
</context>
<context>
    <name>kvl::RunSession</name>
    <message>
        <source>This build of KVLens cannot read run files yet.
%1 was not opened.</source>
        <translation>この KVLens のビルドはまだ実行ファイルを読み込めません。
%1 は開かれませんでした。</translation>
    </message>
</context>
<context>
    <name>kvl::SampleDetail</name>
    <message>
        <source>This sample has no FullCache row, so there is no reference attention to compare with.</source>
        <translation>このサンプルには FullCache の行がないため、比較する基準のアテンションがありません。</translation>
    </message>
    <message>
        <source>No FullCache attention is stored for this sample.</source>
        <translation>このサンプルの FullCache のアテンションは保存されていません。</translation>
    </message>
    <message>
        <source>Sample %1 has no row under %2 yet.</source>
        <translation>サンプル %1 には %2 の行がまだありません。</translation>
    </message>
</context>
<context>
    <name>kvl::SampleInspector</name>
    <message>
        <source>correct</source>
        <translation>正解</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>不正解</translation>
    </message>
    <message>
        <source>Select a row in the Rows panel to inspect its sample.</source>
        <translation>行パネルで行を選ぶと、そのサンプルを調べられます。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>%1 を読み込み中…</translation>
    </message>
    <message>
        <source>The sample is not in the run file.</source>
        <translation>このサンプルは実行ファイルにありません。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) under &lt;b&gt;%3&lt;/b&gt;</source>
        <translation>&lt;b&gt;%3&lt;/b&gt; での &lt;b&gt;%1&lt;/b&gt;（%2）</translation>
    </message>
    <message>
        <source>Answer: &lt;tt&gt;%1&lt;/tt&gt; (%2) · Gold: &lt;tt&gt;%3&lt;/tt&gt;</source>
        <translation>回答: &lt;tt&gt;%1&lt;/tt&gt;（%2） · 正答: &lt;tt&gt;%3&lt;/tt&gt;</translation>
    </message>
    <message>
        <source>FullCache: &lt;tt&gt;%1&lt;/tt&gt; (%2)</source>
        <translation>FullCache: &lt;tt&gt;%1&lt;/tt&gt;（%2）</translation>
    </message>
    <message>
        <source>No row of this sample under this configuration yet.</source>
        <translation>この構成でのこのサンプルの行はまだありません。</translation>
    </message>
    <message>
        <source>ERR %1 · ECov %2 · ΔNLL %3 · EAR %4 · DRR %5 · GER %6</source>
        <translation>ERR %1 · ECov %2 · ΔNLL %3 · EAR %4 · DRR %5 · GER %6</translation>
    </message>
    <message>
        <source>No kept mask stored: tokens are not coloured.</source>
        <translation>保持マスクが保存されていないため、トークンは色付けされません。</translation>
    </message>
    <message>
        <source>Token background: share of (layer, head) slots that kept it (bright = kept by all, dark = evicted by all).</source>
        <translation>トークンの背景: そのトークンを保持した（層, ヘッド）スロットの割合（明るい = 全て保持、暗い = 全て退避）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;&lt;u&gt;Evidence&lt;/u&gt;&lt;/b&gt; · &lt;i&gt;instruction&lt;/i&gt;.</source>
        <translation>&lt;b&gt;&lt;u&gt;根拠&lt;/u&gt;&lt;/b&gt; · &lt;i&gt;指示&lt;/i&gt;。</translation>
    </message>
    <message>
        <source>The run stores no context text with token offsets: token positions are shown.</source>
        <translation>実行ファイルにトークン位置付きのコンテキスト本文がないため、トークン位置を表示します。</translation>
    </message>
    <message>
        <source>sample %1</source>
        <translation>サンプル %1</translation>
    </message>
    <message>
        <source>Question attention — FullCache</source>
        <translation>質問のアテンション — FullCache</translation>
    </message>
    <message>
        <source>Question attention — %1</source>
        <translation>質問のアテンション — %1</translation>
    </message>
    <message>
        <source>FullCache attention, entries evicted by %1 greyed (its own attention is not stored)</source>
        <translation>FullCache のアテンション、%1 が退避したエントリを灰色で表示（%1 自身のアテンションは保存されていません）</translation>
    </message>
    <message>
        <source>No FullCache attention to draw.
%1</source>
        <translation>描画できる FullCache のアテンションがありません。
%1</translation>
    </message>
    <message>
        <source>No attention of %1 to draw.
%2</source>
        <translation>%1 の描画できるアテンションがありません。
%2</translation>
    </message>
    <message>
        <source>Scroll to evidence</source>
        <translation>根拠へスクロール</translation>
    </message>
    <message>
        <source>Scroll the context to its first evidence span</source>
        <translation>コンテキストを最初の根拠スパンまでスクロールします</translation>
    </message>
    <message>
        <source>Previous evidence span</source>
        <translation>前の根拠スパン</translation>
    </message>
    <message>
        <source>Next evidence span</source>
        <translation>次の根拠スパン</translation>
    </message>
    <message>
        <source>&lt;b&gt;System:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;システム:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>System: %1</source>
        <translation>システム: %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Question:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;質問:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>Question: %1</source>
        <translation>質問: %1</translation>
    </message>
    <message>
        <source>no evidence span</source>
        <translation>根拠スパンなし</translation>
    </message>
    <message numerus="yes">
        <source>%n evidence span(s)</source>
        <translation>
            <numerusform>根拠スパン %n 個</numerusform>
        </translation>
    </message>
    <message>
        <source>evidence %1 of %2</source>
        <translation>根拠 %1 / %2</translation>
    </message>
    <message>
        <source>Select a row in the Rows panel to see its attention.</source>
        <translation>行パネルで行を選ぶと、そのアテンションを表示します。</translation>
    </message>
</context>
<context>
    <name>kvl::SelectionBar</name>
    <message>
        <source>Selection</source>
        <translation>選択</translation>
    </message>
    <message>
        <source>Configuration of the attention, eviction map and GER views</source>
        <translation>アテンション・退避マップ・GER ビューの構成</translation>
    </message>
    <message>
        <source>Sample of the attention and compare views; the eviction map averages over all samples unless one is chosen</source>
        <translation>アテンションと比較ビューのサンプル。選ばない場合、退避マップは全サンプルの平均です</translation>
    </message>
    <message>
        <source> Configuration: </source>
        <translation> 構成: </translation>
    </message>
    <message>
        <source>  Sample: </source>
        <translation>  サンプル: </translation>
    </message>
    <message>
        <source>All samples (mean)</source>
        <translation>全サンプル（平均）</translation>
    </message>
</context>
<context>
    <name>kvl::SessionKeeper</name>
    <message>
        <source>Session not restored: %1</source>
        <translation>セッションを復元できませんでした: %1</translation>
    </message>
</context>
<context>
    <name>kvl::SignatureNames</name>
    <message>
        <source>Low mapped coverage</source>
        <translation>低カバレッジ</translation>
    </message>
    <message>
        <source>Partial mapped coverage</source>
        <translation>部分カバレッジ</translation>
    </message>
    <message>
        <source>High coverage, likelihood drift</source>
        <translation>高カバレッジ・尤度ドリフト</translation>
    </message>
    <message>
        <source>Structural, likelihood drift</source>
        <translation>構造的・尤度ドリフト</translation>
    </message>
    <message>
        <source>Low EAR candidate</source>
        <translation>低 EAR 候補</translation>
    </message>
    <message>
        <source>Decode/scorer candidate</source>
        <translation>デコード／採点候補</translation>
    </message>
    <message>
        <source>Conflicting signals</source>
        <translation>矛盾する診断</translation>
    </message>
    <message>
        <source>Ambiguous</source>
        <translation>判定不能</translation>
    </message>
    <message>
        <source>Another variable first</source>
        <translation>最初から別の変数</translation>
    </message>
    <message>
        <source>Right chain, wrong number</source>
        <translation>連鎖は正しく数値が誤り</translation>
    </message>
    <message>
        <source>Link %1</source>
        <translation>リンク %1</translation>
    </message>
</context>
<context>
    <name>kvl::StartPage</name>
    <message>
        <source>Open run…</source>
        <translation>実行ファイルを開く…</translation>
    </message>
    <message>
        <source>Run the demo</source>
        <translation>デモを実行</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <source>&lt;h1&gt;KVLens&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;KVLens&lt;/h1&gt;</translation>
    </message>
    <message>
        <source>See why a compressed KV cache makes a model fail: accuracy against the compression ratio, failure signatures, which heads evicted the evidence.
Open a run file written by kvlens-cli, or run a small demo sweep on the bundled model (a few minutes; the views fill in as samples finish).</source>
        <translation>KV キャッシュの圧縮でモデルが失敗する理由を調べます: 圧縮率に対する正解率、失敗シグネチャ、根拠を退避したヘッド。
kvlens-cli が書いた実行ファイルを開くか、同梱モデルで小さなデモを実行してください（数分。サンプルが終わるごとにビューが埋まります）。</translation>
    </message>
    <message>
        <source>Starting the demo sweep…</source>
        <translation>デモのスイープを開始しています…</translation>
    </message>
</context>
<context>
    <name>kvl::StorePolicy</name>
    <message>
        <source>for every row</source>
        <translation>すべての行について</translation>
    </message>
    <message>
        <source>for no row</source>
        <translation>どの行についても行わず</translation>
    </message>
    <message>
        <source>only for FullCache rows and rows answered wrong</source>
        <translation>FullCache の行と誤答の行についてのみ</translation>
    </message>
    <message>
        <source>%1&apos;s own attention is not stored for sample %2 (%3, answered %4): the run stores compressed attention %5. To store it for every row, start a run with &quot;Store attention for every row&quot; (New run) or --store-attention all.</source>
        <translation>サンプル %2 について %1 自身のアテンションは保存されていません（%3、%4）: この実行は圧縮後のアテンションを%5保存します。すべての行で保存するには、「すべての行でアテンションを保存」（新規実行）または --store-attention all で実行してください。</translation>
    </message>
    <message>
        <source>right</source>
        <translation>正答</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>誤答</translation>
    </message>
</context>
<context>
    <name>kvl::StoreRunLoader</name>
    <message>
        <source>Mean keep rate of the span</source>
        <translation>スパンの平均保持率</translation>
    </message>
    <message>
        <source>%1 · instruction #%2</source>
        <translation>%1 · 指示 #%2</translation>
    </message>
    <message>
        <source>Leak rate (ROUGE-L recall &gt; %1)</source>
        <translation>漏洩率（ROUGE-L 再現率 &gt; %1）</translation>
    </message>
    <message>
        <source>Repair rate</source>
        <translation>修復率</translation>
    </message>
    <message>
        <source>Wilson score intervals</source>
        <translation>Wilson スコア区間</translation>
    </message>
    <message>
        <source>intervals: mean ± 1.96 standard errors over the rows</source>
        <translation>区間: 平均 ± 1.96 × 標準誤差（行ごと）</translation>
    </message>
    <message>
        <source>instruction #%1</source>
        <translation>指示 #%1</translation>
    </message>
    <message>
        <source>No row of %1 stores question attention yet: the run keeps it for rows answered wrong (%2), and none is stored so far.</source>
        <translation>%1 の行には質問のアテンションがまだ保存されていません: この実行は誤答の行について保存します（%2）が、まだありません。</translation>
    </message>
    <message>
        <source>Sample %1 has no row under %2 yet.</source>
        <translation>サンプル %1 には %2 の行がまだありません。</translation>
    </message>
    <message>
        <source>This run has no FullCache rows, so there is no reference attention to compare with.</source>
        <translation>この実行には FullCache の行がないため、比較する基準のアテンションがありません。</translation>
    </message>
    <message>
        <source>No FullCache attention is stored for sample %1 (the run&apos;s attention policy: %2).</source>
        <translation>サンプル %1 の FullCache のアテンションは保存されていません（この実行の保存方針: %2）。</translation>
    </message>
    <message>
        <source>%1 has no rows yet.</source>
        <translation>%1 にはまだ行がありません。</translation>
    </message>
    <message>
        <source>No kept mask is stored for sample %1 under %2 (the run&apos;s mask policy: %3).</source>
        <translation>%2 のサンプル %1 の保持マスクは保存されていません（この実行のマスク保存方針: %3）。</translation>
    </message>
    <message>
        <source>No kept mask is stored for any row of %1 (the run&apos;s mask policy: %2).</source>
        <translation>%1 のどの行にも保持マスクが保存されていません（この実行のマスク保存方針: %2）。</translation>
    </message>
    <message>
        <source>Imported from %1: %2.</source>
        <translation>%1 からインポート: %2。</translation>
    </message>
    <message>
        <source>no masks or attention were released</source>
        <translation>マスクとアテンションは公開されていません</translation>
    </message>
</context>
<context>
    <name>kvl::SuiteFailuresPage</name>
    <message>
        <source>Failure sets of:</source>
        <translation>失敗集合:</translation>
    </message>
    <message>
        <source>and</source>
        <translation>と</translation>
    </message>
</context>
<context>
    <name>kvl::SweepWords</name>
    <message>
        <source>token range &apos;%1&apos; is not MIN:MAX or N (1 ≤ MIN ≤ MAX)</source>
        <translation>トークン数 &apos;%1&apos; は MIN:MAX または N の形ではありません（1 ≤ MIN ≤ MAX）。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a number</source>
        <translation>&apos;%1&apos; は数値ではありません。</translation>
    </message>
    <message>
        <source>%1: a ratio is the share of the context removed, in [0, 1)</source>
        <translation>%1: 圧縮率はコンテキストから削除する割合で、[0, 1) の範囲です。</translation>
    </message>
    <message>
        <source>%1 is listed twice</source>
        <translation>%1 が 2 回指定されています。</translation>
    </message>
    <message>
        <source>presses need at least one ratio</source>
        <translation>プレスには圧縮率が 1 つ以上必要です。</translation>
    </message>
</context>
<context>
    <name>kvl::TaxonomyPage</name>
    <message>
        <source>Selected %1 C→W rows of %2 at ratio %3 with signature %4</source>
        <translation>%2（圧縮率 %3）のシグネチャ %4 の C→W 行 %1 件を選択しました</translation>
    </message>
    <message>
        <source>%1 · %2 (C→W)</source>
        <translation>%1 · %2（C→W）</translation>
    </message>
    <message>
        <source>no C→W row with a failure signature</source>
        <translation>失敗シグネチャのある C→W 行がありません</translation>
    </message>
</context>
<context>
    <name>kvl::TaxonomyView</name>
    <message>
        <source>Failure signatures of C→W rows</source>
        <translation>C→W 行の失敗シグネチャ</translation>
    </message>
    <message>
        <source>No run open.
The taxonomy shows, for each compressor and ratio, why rows that FullCache answers correctly fail under compression.</source>
        <translation>実行結果が開かれていません。
分類は、圧縮手法と圧縮率ごとに、FullCache で正解する行が圧縮でなぜ失敗するかを示します。</translation>
    </message>
    <message>
        <source>Compressor and compression ratio</source>
        <translation>圧縮手法と圧縮率</translation>
    </message>
    <message>
        <source>Share of C→W rows</source>
        <translation>C→W 行の割合</translation>
    </message>
    <message>
        <source>C→W rows</source>
        <translation>C→W 行数</translation>
    </message>
</context>
<context>
    <name>kvl::ViewMenu</name>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Next view</source>
        <translation>次のビュー(&amp;N)</translation>
    </message>
    <message>
        <source>Ctrl+PgDown</source>
        <translation>Ctrl+PgDown</translation>
    </message>
    <message>
        <source>&amp;Previous view</source>
        <translation>前のビュー(&amp;P)</translation>
    </message>
    <message>
        <source>Ctrl+PgUp</source>
        <translation>Ctrl+PgUp</translation>
    </message>
    <message>
        <source>Go to the &amp;views list</source>
        <translation>ビューの一覧へ移動(&amp;V)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
    </message>
</context>
<context>
    <name>kvl::ViewNavigator</name>
    <message>
        <source>Views</source>
        <translation>ビュー</translation>
    </message>
</context>
</TS>

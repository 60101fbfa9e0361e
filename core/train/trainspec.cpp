#include "train/trainspec.h"

#include "common/error.h"
#include "common/jsonio.h"

#include <QJsonArray>

#include <limits>

namespace kvl {

namespace {

// Field readers that name the file and the field on a type error; absent fields keep
// the default already in the struct.
class Reader
{
  public:
    Reader(const QJsonObject& object, QString origin, QString prefix)
        : m_object(object), m_origin(std::move(origin)), m_prefix(std::move(prefix))
    {}

    void read(const char* key, int& out) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        const std::optional<qint64> whole = jsonWholeNumber(v);
        if (!whole || *whole < std::numeric_limits<int>::min() ||
            *whole > std::numeric_limits<int>::max())
            fail(key, QStringLiteral("an integer"));
        out = int(*whole);
    }
    void read(const char* key, quint64& out) const
    {
        int value = int(out);
        read(key, value);
        out = quint64(value);
    }
    void read(const char* key, double& out) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (!v.isDouble())
            fail(key, QStringLiteral("a number"));
        out = v.toDouble();
    }
    void read(const char* key, bool& out) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (!v.isBool())
            fail(key, QStringLiteral("true or false"));
        out = v.toBool();
    }
    void read(const char* key, QString& out) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        if (!v.isString())
            fail(key, QStringLiteral("a string"));
        out = v.toString();
    }
    // [min, max] pair of integers.
    void readRange(const char* key, int& lo, int& hi) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined())
            return;
        const QJsonArray a = v.toArray();
        if (!v.isArray() || a.size() != 2 || !a[0].isDouble() || !a[1].isDouble() ||
            a[0].toInt() > a[1].toInt() || a[0].toInt() < 0)
            fail(key, QStringLiteral("[min, max] with 0 <= min <= max"));
        lo = a[0].toInt();
        hi = a[1].toInt();
    }
    QJsonObject object(const char* key) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isObject())
            fail(key, QStringLiteral("an object"));
        return v.toObject();
    }
    [[noreturn]] void fail(const char* key, const QString& expected) const
    {
        throw Error(
            m_origin,
            QStringLiteral("field %1%2 must be %3").arg(m_prefix, QLatin1String(key), expected));
    }

  private:
    QJsonObject m_object;
    QString m_origin;
    QString m_prefix;
};

QJsonArray range(int lo, int hi)
{
    return QJsonArray{lo, hi};
}

} // namespace

int TrainSpec::totalSteps() const
{
    int total = 0;
    for (const TrainStage& s : stages)
        total += s.steps;
    return total;
}

std::pair<int, int> TrainSpec::locate(int step) const
{
    for (int i = 0; i < int(stages.size()); ++i) {
        if (step < stages[i].steps)
            return {i, step};
        step -= stages[i].steps;
    }
    return {int(stages.size()), 0};
}

ModelConfig TrainModelShape::config(int vocabSize, int bosId, const std::vector<int>& eosIds) const
{
    ModelConfig c;
    c.architecture = attentionBias ? Architecture::Qwen2 : Architecture::Llama;
    c.architectureName = attentionBias ? QStringLiteral("Qwen2ForCausalLM")
                                       : QStringLiteral("LlamaForCausalLM");
    c.attentionBias = attentionBias;
    c.vocabSize = vocabSize;
    c.hiddenSize = hidden;
    c.intermediateSize = intermediate;
    c.numLayers = layers;
    c.numHeads = heads;
    c.numKvHeads = kvHeads;
    c.headDim = hidden / heads;
    c.maxPositionEmbeddings = maxPosition;
    c.rmsNormEps = 1e-5;
    c.ropeTheta = ropeTheta;
    c.tieWordEmbeddings = tieEmbeddings;
    c.bosTokenId = bosId;
    c.eosTokenIds = eosIds;
    c.torchDtype = QStringLiteral("float32");
    return c;
}

TrainSpec TrainSpec::fromJson(const QJsonObject& json, const QString& origin)
{
    TrainSpec spec;
    const Reader top(json, origin, QString());
    const Reader model(top.object("model"), origin, QStringLiteral("model."));
    model.read("hidden", spec.model.hidden);
    model.read("layers", spec.model.layers);
    model.read("heads", spec.model.heads);
    model.read("kv_heads", spec.model.kvHeads);
    model.read("intermediate", spec.model.intermediate);
    model.read("rope_theta", spec.model.ropeTheta);
    model.read("max_position", spec.model.maxPosition);
    model.read("tie_embeddings", spec.model.tieEmbeddings);
    model.read("attention_bias", spec.model.attentionBias);
    if (spec.model.heads <= 0 || spec.model.kvHeads <= 0 || spec.model.heads % spec.model.kvHeads)
        model.fail("kv_heads", QStringLiteral("a positive divisor of heads"));
    if (spec.model.hidden % spec.model.heads)
        model.fail("hidden", QStringLiteral("a multiple of heads"));
    if (spec.model.layers <= 0)
        model.fail("layers", QStringLiteral("positive"));

    const Reader tok(top.object("tokenizer"), origin, QStringLiteral("tokenizer."));
    tok.read("vocab_size", spec.vocabSize);
    tok.read("path", spec.tokenizerPath);
    tok.read("corpus_samples", spec.tokenizerCorpusSamples);

    const Reader opt(top.object("optimizer"), origin, QStringLiteral("optimizer."));
    opt.read("weight_decay", spec.weightDecay);
    opt.read("beta1", spec.beta1);
    opt.read("beta2", spec.beta2);
    opt.read("clip", spec.clipNorm);

    top.read("init_from", spec.initFrom);
    top.read("previous_token_head", spec.previousTokenHead);
    QString init = QStringLiteral("gpt2");
    top.read("init", init);
    if (init != QLatin1String("gpt2") && init != QLatin1String("torch"))
        top.fail("init", QStringLiteral("\"gpt2\" or \"torch\""));
    spec.init = init == QLatin1String("torch") ? WeightInit::Torch : WeightInit::Gpt2;
    top.read("seed", spec.seed);
    top.read("checkpoint_every", spec.checkpointEvery);
    top.read("eval_every", spec.evalEvery);
    top.read("eval_samples", spec.evalSamples);
    top.read("threads", spec.threads);

    const QJsonValue stages = json.value(QStringLiteral("stages"));
    if (!stages.isArray() || stages.toArray().isEmpty())
        top.fail("stages", QStringLiteral("a non-empty array of stages"));
    int index = 0;
    for (const QJsonValue& value : stages.toArray()) {
        const QString prefix = QStringLiteral("stages[%1].").arg(index++);
        if (!value.isObject())
            throw Error(origin, QStringLiteral("%1 must be an object").arg(prefix.chopped(1)));
        const QJsonObject object = value.toObject();
        const Reader r(object, origin, prefix);
        TrainStage stage;
        r.read("name", stage.name);
        r.read("steps", stage.steps);
        r.read("lr", stage.lr);
        stage.lrMin = stage.lr / 10;
        r.read("lr_min", stage.lrMin);
        r.read("warmup_steps", stage.warmupSteps);
        r.read("batch_sequences", stage.batchSequences);
        r.read("tokens_per_batch", stage.tokensPerBatch);
        r.read("recall_share", stage.recallShare);
        r.read("echo_share", stage.echoShare);
        if (stage.echoShare < 0.0 || stage.echoShare > 1.0)
            r.fail("echo_share", QStringLiteral("in [0, 1]"));
        r.readRange("context_tokens", stage.minContextTokens, stage.maxContextTokens);
        r.read("follow_ups", stage.followUps);
        if (stage.followUps < 0 || stage.followUps > 64)
            r.fail("follow_ups", QStringLiteral("within [0, 64]"));
        const Reader recall(r.object("recall"), origin, prefix + QStringLiteral("recall."));
        recall.readRange("pairs", stage.recall.minPairs, stage.recall.maxPairs);
        recall.readRange("filler", stage.recall.minFiller, stage.recall.maxFiller);
        recall.read("pool", stage.recall.pool);
        recall.read("repeats", stage.recall.repeats);
        recall.readRange("key_tokens", stage.recall.minKeyTokens, stage.recall.maxKeyTokens);
        recall.readRange("value_tokens", stage.recall.minValueTokens,
                         stage.recall.maxValueTokens);
        recall.read("digit_values", stage.recall.digitValues);
        recall.readRange("gap_tokens", stage.recall.minGapTokens, stage.recall.maxGapTokens);
        if (stage.recall.maxGapTokens > 8)
            recall.fail("gap_tokens", QStringLiteral("within [0, 8]"));
        if (stage.recall.minKeyTokens < 1 || stage.recall.maxKeyTokens > 4)
            recall.fail("key_tokens", QStringLiteral("within [1, 4]"));
        if (stage.recall.minValueTokens < 1 || stage.recall.maxValueTokens > 4)
            recall.fail("value_tokens", QStringLiteral("within [1, 4]"));
        if (stage.recall.repeats < 1)
            recall.fail("repeats", QStringLiteral("at least 1"));
        if (stage.recall.pool < 0 || (stage.recall.pool > 0 && stage.recall.pool < stage.recall.maxPairs))
            recall.fail("pool", QStringLiteral("0 (all ordinary tokens) or at least the largest pair count"));
        const QJsonValue frozen = object.value(QStringLiteral("freeze"));
        if (!frozen.isUndefined()) {
            if (!frozen.isArray())
                r.fail("freeze", QStringLiteral("an array of parameter names"));
            for (const QJsonValue& name : frozen.toArray()) {
                if (!name.isString())
                    r.fail("freeze", QStringLiteral("an array of parameter names"));
                stage.frozen.push_back(name.toString());
            }
        }
        const QJsonObject suites = r.object("suites");
        for (auto it = suites.begin(); it != suites.end(); ++it) {
            if (!it.value().isDouble() || it.value().toDouble() < 0)
                r.fail("suites", QStringLiteral("an object of non-negative shares"));
            const auto [suite, variant] = splitSuiteEntry(it.key());
            if (suite.isEmpty() || (it.key().contains(QLatin1Char('/')) && variant.isEmpty()))
                r.fail("suites", QStringLiteral("keys \"suite\" or \"suite/variant\", not \"%1\"")
                                     .arg(it.key()));
            stage.suites.emplace_back(it.key(), it.value().toDouble());
        }
        if (stage.steps <= 0)
            r.fail("steps", QStringLiteral("positive"));
        if ((stage.batchSequences <= 0) == (stage.tokensPerBatch <= 0))
            r.fail("batch_sequences",
                   QStringLiteral("given, or tokens_per_batch instead (one of the two)"));
        if (stage.recallShare < 1.0 && stage.suites.empty())
            r.fail("suites", QStringLiteral("given when recall_share < 1"));
        spec.stages.push_back(stage);
    }
    return spec;
}

std::pair<QString, QString> splitSuiteEntry(const QString& entry)
{
    const qsizetype slash = entry.indexOf(QLatin1Char('/'));
    if (slash < 0)
        return {entry, QString()};
    return {entry.left(slash), entry.mid(slash + 1)};
}

QStringList TrainStage::evalSuites() const
{
    QStringList names;
    for (const auto& [entry, share] : suites) {
        const QString suite = splitSuiteEntry(entry).first;
        if (!names.contains(suite))
            names << suite;
    }
    return names;
}

QJsonObject TrainSpec::toJson() const
{
    QJsonArray stageArray;
    for (const TrainStage& s : stages) {
        QJsonObject suiteObject;
        for (const auto& [name, share] : s.suites)
            suiteObject.insert(name, share);
        QJsonObject o{
            {QStringLiteral("name"), s.name},
            {QStringLiteral("steps"), s.steps},
            {QStringLiteral("lr"), s.lr},
            {QStringLiteral("lr_min"), s.lrMin},
            {QStringLiteral("warmup_steps"), s.warmupSteps},
            {QStringLiteral("recall_share"), s.recallShare},
            {QStringLiteral("echo_share"), s.echoShare},
            {QStringLiteral("freeze"), QJsonArray::fromStringList(QStringList(s.frozen.begin(), s.frozen.end()))},
            {QStringLiteral("context_tokens"), range(s.minContextTokens, s.maxContextTokens)},
            {QStringLiteral("follow_ups"), s.followUps},
            {QStringLiteral("recall"),
             QJsonObject{
                 {QStringLiteral("pairs"), range(s.recall.minPairs, s.recall.maxPairs)},
                 {QStringLiteral("filler"), range(s.recall.minFiller, s.recall.maxFiller)},
                 {QStringLiteral("pool"), s.recall.pool},
                 {QStringLiteral("repeats"), s.recall.repeats},
                 {QStringLiteral("key_tokens"), range(s.recall.minKeyTokens, s.recall.maxKeyTokens)},
                 {QStringLiteral("value_tokens"),
                  range(s.recall.minValueTokens, s.recall.maxValueTokens)},
                 {QStringLiteral("digit_values"), s.recall.digitValues},
                 {QStringLiteral("gap_tokens"), range(s.recall.minGapTokens, s.recall.maxGapTokens)}}},
            {QStringLiteral("suites"), suiteObject}};
        if (s.batchSequences > 0)
            o.insert(QStringLiteral("batch_sequences"), s.batchSequences);
        else
            o.insert(QStringLiteral("tokens_per_batch"), s.tokensPerBatch);
        stageArray.append(o);
    }
    return {
        {QStringLiteral("model"),
         QJsonObject{{QStringLiteral("hidden"), model.hidden},
                     {QStringLiteral("layers"), model.layers},
                     {QStringLiteral("heads"), model.heads},
                     {QStringLiteral("kv_heads"), model.kvHeads},
                     {QStringLiteral("intermediate"), model.intermediate},
                     {QStringLiteral("rope_theta"), model.ropeTheta},
                     {QStringLiteral("max_position"), model.maxPosition},
                     {QStringLiteral("tie_embeddings"), model.tieEmbeddings},
                     {QStringLiteral("attention_bias"), model.attentionBias}}},
        {QStringLiteral("tokenizer"),
         QJsonObject{{QStringLiteral("vocab_size"), vocabSize},
                     {QStringLiteral("path"), tokenizerPath},
                     {QStringLiteral("corpus_samples"), tokenizerCorpusSamples}}},
        {QStringLiteral("optimizer"), QJsonObject{{QStringLiteral("weight_decay"), weightDecay},
                                                  {QStringLiteral("beta1"), beta1},
                                                  {QStringLiteral("beta2"), beta2},
                                                  {QStringLiteral("clip"), clipNorm}}},
        {QStringLiteral("stages"), stageArray},
        {QStringLiteral("init_from"), initFrom},
        {QStringLiteral("previous_token_head"), previousTokenHead},
        {QStringLiteral("init"),
         init == WeightInit::Torch ? QStringLiteral("torch") : QStringLiteral("gpt2")},
        {QStringLiteral("seed"), qint64(seed)},
        {QStringLiteral("checkpoint_every"), checkpointEvery},
        {QStringLiteral("eval_every"), evalEvery},
        {QStringLiteral("eval_samples"), evalSamples},
        {QStringLiteral("threads"), threads},
    };
}

} // namespace kvl

// llama.cpp beside KVLens's engine: loads a GGUF file with node-llama-cpp (3.21.1, its
// prebuilt CPU binaries; no GPU) and either times it as `kvlens-cli bench` times the
// engine (mode "bench") or runs a prompt for the tests (mode "check"). `kvlens-cli bench
// --compare-llamacpp` runs it; it is installed beside the bundled model
// (share/kvlens/tools) and read from resources/tools in a build tree.
//
//   node llamacpp-bench.mjs --modules DIR --model FILE.gguf --ids FILE --threads N
//        [--mode bench|check] [--decode M] [--repeats R] [--top K] [--generate G]
//        [--kv-type F16|F32] [--flash-attention auto|on|off]
//
// DIR is a node_modules folder holding node-llama-cpp (ES modules ignore NODE_PATH, so
// it is resolved from there by hand). FILE holds the token ids as a JSON array: the
// prompt is given as ids, not text, so both engines see the same tokens whatever either
// tokenizer would make of a text. Prints one JSON object on stdout; errors go to stderr
// with a non-zero exit.
//
// bench: a 64-token warm-up prefill (thread pool, weight pages; then forgotten), the
// prefill of all ids in one batch (batchSize = the prompt, so llama.cpp, like the
// engine, takes the prompt as one ubatch) with the logits of the last position only,
// best of R; then one warm-up decode step and M timed ones, each one token through
// llama_decode plus greedy sampling, the median reported (the engine's decode step
// is the median of 16 after one warm-up).
// check: the next-token probabilities after the prompt (the K largest) and G greedy
// tokens after it.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

function fail(message) {
    process.stderr.write(`llamacpp-bench: ${message}\n`);
    process.exit(1);
}

function parseArgs(argv) {
    const args = { mode: "bench", decode: 16, repeats: 1, top: 10, generate: 8 };
    for (let i = 0; i < argv.length; i += 2) {
        const key = argv[i].replace(/^--/, "");
        if (i + 1 >= argv.length)
            fail(`--${key} needs a value`);
        args[key] = argv[i + 1];
    }
    for (const required of ["modules", "model", "ids", "threads"])
        if (args[required] === undefined)
            fail(`missing --${required}`);
    for (const key of ["decode", "repeats", "top", "generate", "threads"]) {
        args[key] = Number(args[key]);
        if (!Number.isInteger(args[key]) || args[key] < 0)
            fail(`--${key} is not a whole number`);
    }
    if (args.mode !== "bench" && args.mode !== "check")
        fail(`--mode is bench or check, not '${args.mode}'`);
    args["flash-attention"] ??= "auto";
    if (!["auto", "on", "off"].includes(args["flash-attention"]))
        fail(`--flash-attention is auto, on or off, not '${args["flash-attention"]}'`);
    // The engine caches keys and values in F32; llama.cpp's default is F16. The check
    // compares functions, so it caches as the engine does; the bench keeps llama.cpp's
    // default unless told otherwise.
    args["kv-type"] ??= args.mode === "check" ? "F32" : undefined;
    if (args["kv-type"] !== undefined && !["F16", "F32"].includes(args["kv-type"]))
        fail(`--kv-type is F16 or F32, not '${args["kv-type"]}'`);
    return args;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const args = parseArgs(process.argv.slice(2));

async function main() {
    const ids = JSON.parse(readFileSync(args.ids, "utf8"));
    if (!Array.isArray(ids) || ids.length === 0 || !ids.every(Number.isInteger))
        fail(`${args.ids}: not a JSON array of token ids`);

    let entry;
    try {
        entry = createRequire(path.join(path.resolve(args.modules), "noop.js")).resolve("node-llama-cpp");
    } catch {
        fail(`node-llama-cpp is not installed in ${args.modules} ` +
             `(cd there/.. && npm install node-llama-cpp@3.21.1)`);
    }
    const packageJson = JSON.parse(readFileSync(
        path.join(path.dirname(entry), "..", "package.json"), "utf8"));
    const { getLlama, LlamaLogLevel } = await import(pathToFileURL(entry).href);

    // Prebuilt CPU binaries only: never a GPU, never a source build in the middle of a bench.
    const llama = await getLlama({
        gpu: false, build: "never", usePrebuiltBinaries: true, skipDownload: true,
        progressLogs: false, logLevel: LlamaLogLevel.error, maxThreads: args.threads,
    });
    const loadStart = performance.now();
    const model = await llama.loadModel({ modelPath: args.model, gpuLayers: 0 });
    const loadSeconds = (performance.now() - loadStart) / 1000;
    const decodeSteps = args.mode === "bench" ? args.decode + 1 : args.generate;
    const kvType = args["kv-type"];
    const context = await model.createContext({
        contextSize: ids.length + decodeSteps + 8,
        batchSize: ids.length,
        threads: { ideal: args.threads, min: args.threads },
        sequences: 1,
        flashAttention: { auto: "auto", on: true, off: false }[args["flash-attention"]],
        ...(kvType ? { experimentalKvCacheKeyType: kvType, experimentalKvCacheValueType: kvType } : {}),
    });
    const sequence = context.getSequence();

    // The prompt, asking for the next token (so the LM head runs on the last row only, as
    // the engine's prefill does); returns the evaluation's output for the last position.
    async function prefill(prompt, nextOptions) {
        const items = prompt.map((id, i) =>
            i === prompt.length - 1 ? [id, { generateNext: nextOptions }] : id);
        const out = await sequence.controlledEvaluate(items);
        return out[prompt.length - 1];
    }

    async function step(token) {
        const out = await sequence.controlledEvaluate([[token, { generateNext: { token: true } }]]);
        return out[0].next.token;
    }

    const result = {
        node_llama_cpp: packageJson.version,
        llama_cpp: llama.llamaCppRelease?.release ?? null,
        gpu: llama.gpu,
        threads: context.currentThreads,
        context_size: context.contextSize,
        batch_size: context.batchSize,
        flash_attention: args["flash-attention"], // "auto": llama.cpp decides
        kv_cache_type: kvType ?? "default (F16)",
        load_seconds: loadSeconds,
    };

    if (args.mode === "bench") {
        await prefill(ids.slice(0, Math.min(64, ids.length)), { token: true });
        await sequence.clearHistory();
        let best = Infinity;
        let next;
        for (let r = 0; r < Math.max(1, args.repeats); ++r) {
            if (r > 0)
                await sequence.clearHistory();
            const start = performance.now();
            next = (await prefill(ids, { token: true })).next.token;
            best = Math.min(best, (performance.now() - start) / 1000);
        }
        let token = await step(next); // warm-up
        const times = [];
        for (let s = 0; s < args.decode; ++s) {
            const start = performance.now();
            token = await step(token);
            times.push((performance.now() - start) / 1000);
        }
        Object.assign(result, {
            prefill_tokens: ids.length,
            prefill_seconds: best,
            prefill_tokens_per_s: ids.length / best,
            decode_steps: times.length,
            decode_step_seconds: times.length ? median(times) : null,
        });
    } else {
        const last = await prefill(ids, { token: true, probabilities: true });
        const top = [...last.next.probabilities.entries()].slice(0, args.top);
        const generated = [last.next.token];
        while (generated.length < args.generate)
            generated.push(await step(generated[generated.length - 1]));
        Object.assign(result, {
            prompt_tokens: ids.length,
            top: top.map(([id, p]) => [id, p]),
            generated,
        });
    }
    process.stdout.write(JSON.stringify(result) + "\n");
    await context.dispose();
    await model.dispose();
    await llama.dispose();
}

// A failure (a file llama.cpp refuses, a missing binary) as one line, not a stack.
main().catch((error) => fail(error?.message ?? String(error)));

// Experiment spec: ExperimentSpec::fromFile on arbitrary bytes. core/run links libtorch
// as a library, but experimentspec.cpp itself needs only Qt, common and diagnose, so
// the target compiles that one file. A spec that loads must load again from its
// canonical JSON (what a run file records and a resumed run compares).

#include "common/error.h"
#include "fuzztarget.h"
#include "run/experimentspec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString path =
        kvl::fuzz::writeTempFile(kvl::fuzz::bytesOf(data, size), QStringLiteral("spec.json"));
    kvl::ExperimentSpec spec;
    try {
        spec = kvl::ExperimentSpec::fromFile(path);
    } catch (const kvl::Error& e) {
        kvl::fuzz::rejected(e);
        return 0;
    }
    try {
        const QJsonObject canonical = spec.toJson();
        if (kvl::ExperimentSpec::fromJson(canonical, QStringLiteral("canonical")).toJson() !=
            canonical)
            qFatal("the canonical JSON of a spec is not a fixed point");
    } catch (const kvl::Error& e) {
        qFatal("the canonical JSON of an accepted spec is rejected: %s", e.what());
    }
    return 0;
}

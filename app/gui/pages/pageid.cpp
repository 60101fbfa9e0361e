#include "pageid.h"

#include <QCoreApplication>

namespace kvl {

QString pageGroupTitle(PageGroup group)
{
    switch (group) {
    case PageGroup::Overview:
        return QCoreApplication::translate("kvl::MainWindow", "Overview");
    case PageGroup::Failures:
        return QCoreApplication::translate("kvl::MainWindow", "Failures");
    case PageGroup::Attention:
        return QCoreApplication::translate("kvl::MainWindow", "Attention");
    case PageGroup::Instructions:
        return QCoreApplication::translate("kvl::MainWindow", "Instructions");
    case PageGroup::Routing:
        return QCoreApplication::translate("kvl::MainWindow", "Routing");
    case PageGroup::Samples:
        return QCoreApplication::translate("kvl::MainWindow", "Samples");
    case PageGroup::Decoding:
        return QCoreApplication::translate("kvl::MainWindow", "Decoding");
    }
    return {};
}

QString pageGroupQuestion(PageGroup group)
{
    switch (group) {
    case PageGroup::Overview:
        return QCoreApplication::translate("kvl::MainWindow",
                                           "How accurate is each compressor at each ratio?");
    case PageGroup::Failures:
        return QCoreApplication::translate(
            "kvl::MainWindow",
            "Why do compressed rows fail, and do compressors fail on the same samples?");
    case PageGroup::Attention:
        return QCoreApplication::translate(
            "kvl::MainWindow",
            "Where does the question look, and does boosting the attention on the "
            "evidence repair a failure?");
    case PageGroup::Instructions:
        return QCoreApplication::translate(
            "kvl::MainWindow", "Do the system prompt and the instructions survive compression?");
    case PageGroup::Routing:
        return QCoreApplication::translate(
            "kvl::MainWindow",
            "Which entries survive in which layers and heads, and where is the cliff?");
    case PageGroup::Samples:
        return QCoreApplication::translate(
            "kvl::MainWindow",
            "What did the model see and answer, and how do two configurations or two "
            "runs compare?");
    case PageGroup::Decoding:
        return QCoreApplication::translate(
            "kvl::MainWindow",
            "While the answer is decoded, does the cache keep (decode-time compression) "
            "or retrieve (offloading) the evidence each step needs?");
    }
    return {};
}

} // namespace kvl

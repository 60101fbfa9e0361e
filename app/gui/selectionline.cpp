#include "selectionline.h"

#include "runpage.h"
#include "runsession.h"
#include "viewnavigator.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace kvl {

QString selectionLine(const ViewNavigator& navigator, const RunSession& session,
                      const RunPage* page)
{
    const QString id = page ? page->id().toString() : navigator.currentPage();
    QStringList parts;
    parts << QCoreApplication::translate("kvl::MainWindow", "%1 › %2")
                 .arg(navigator.groupTitle(id), navigator.pageTitle(id));
    const QString path = session.path();
    if (path.isEmpty())
        return parts.first();
    parts << QCoreApplication::translate("kvl::MainWindow", "run: %1")
                 .arg(QFileInfo(path).fileName());
    ShownSelection shown{session.data().focus, session.request().sampleKey, false};
    if (page)
        shown = page->shownSelection(shown);
    if (!shown.config.compressor.isEmpty())
        parts << QCoreApplication::translate("kvl::MainWindow", "configuration: %1")
                     .arg(shown.config.label());
    // With "All samples" in the toolbar the attention page still draws one sample: say
    // which, and why, rather than contradict the toolbar.
    parts << (shown.sample.isEmpty()
                  ? QCoreApplication::translate("kvl::MainWindow", "sample: all (mean)")
              : shown.oneSampleOfAll
                  ? QCoreApplication::translate(
                        "kvl::MainWindow",
                        "sample: %1 (attention maps are drawn one sample at a time: the first; "
                        "pick another in the Sample box)")
                        .arg(shown.sample)
                  : QCoreApplication::translate("kvl::MainWindow", "sample: %1").arg(shown.sample));
    parts << QCoreApplication::translate("kvl::MainWindow", "heads: %1")
                 .arg(session.selection().heads.describe());
    return parts.join(QStringLiteral(" · "));
}

} // namespace kvl

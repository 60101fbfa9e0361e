#pragma once

#include <QString>

namespace kvl {

class RunPage;
class RunSession;
class ViewNavigator;

// The line over every page: "<group> › <page> · run: R · configuration: C · sample: S ·
// heads: H", naming what the page shows (RunPage::shownSelection) so that a screenshot or
// a glance never leaves it to memory. Without a run, the page alone.
QString selectionLine(const ViewNavigator& navigator, const RunSession& session,
                      const RunPage* page);

} // namespace kvl

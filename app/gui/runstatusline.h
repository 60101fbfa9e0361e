#pragma once

#include <QString>

namespace kvl {

struct RunViewData;

// The status bar's line about the open run: its samples and rows, whether the rows'
// checksums were checked, the rows it misses and why, and where an imported run came
// from; the tooltip lists what the line only counts.
struct RunStatusLine
{
    QString text;
    QString toolTip;
};

RunStatusLine runStatusLine(const RunViewData& data, bool verified);

} // namespace kvl

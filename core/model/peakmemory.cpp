#include "model/peakmemory.h"

#include <sys/resource.h>

namespace kvl {

double peakRssMegabytes()
{
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0.0;
    return double(usage.ru_maxrss) / 1024.0; // Linux reports KiB
}

} // namespace kvl

#include "model/peakmemory.h"

#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace kvl {

double peakRssMegabytes()
{
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0)
        return 0.0;
    return double(usage.ru_maxrss) / 1024.0; // Linux reports KiB
}

double currentRssMegabytes()
{
    std::ifstream statm("/proc/self/statm");
    long long pages = 0, resident = 0;
    if (!(statm >> pages >> resident))
        return 0.0;
    return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

} // namespace kvl

// LatestRequest is a template member class; this file gives AUTOMOC its header.
#include "latestrequest.h"

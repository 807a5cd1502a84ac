// serving.hpp: how many GPUs serve a request rate at a latency target: the queueing of
// requests for batch slots (Erlang B and C, the M/M/c and approximate M/G/c waits, the fewest
// servers for a percentile wait)
#pragma once

#include "serving/queueing.hpp"

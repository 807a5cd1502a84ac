// serving.hpp: how many GPUs serve a request rate at a latency target: one replica's capacity
// under continuous batching and its behaviour at a load, and the queueing of requests for batch
// slots (Erlang B and C, the M/M/c and approximate M/G/c waits, the fewest servers for a wait),
// the fewest replicas for a request rate at a TTFT and TPOT SLO, with its cost per token; cold
// starts and warm replicas for a ramp; a day's demand curve always on, autoscaled or serverless,
// with its reserved base load; batch inference on demand or on spot; right-sizing a running
// deployment from its measured utilization, memory and queue trend; the cheapest mix of GPU
// types for a mix of request sizes; and serving workloads that are not transformers (items)
#pragma once

#include "serving/batch.hpp"
#include "serving/capacity.hpp"
#include "serving/cold_start.hpp"
#include "serving/demand.hpp"
#include "serving/fleet.hpp"
#include "serving/fleet_search.hpp"
#include "serving/items.hpp"
#include "serving/load.hpp"
#include "serving/queueing.hpp"
#include "serving/replicas.hpp"
#include "serving/right_size.hpp"

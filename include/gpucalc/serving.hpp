// serving.hpp: serving capacity: one replica under continuous batching, and how many replicas a
// request rate needs
#pragma once

#include "serving/capacity.hpp"
#include "serving/load.hpp"

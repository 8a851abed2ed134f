// Strata: the result of asking a kernel to run: a code and, when it refuses, why, in words.
// The type lives on floor 2 (atom/status.hpp), where the TMA descriptor builder refuses with it too.
#pragma once

#include "../atom/status.hpp"

// Host tests of the launch attributes every Hopper launch goes through (kernel/launch.hpp): the
// cluster and programmatic-serialization attributes as asked, and the placement study knob
// (detail::study_cluster, set to 2 as bench/tools/sm90_trace.cu does): it must put launches that
// asked for no cluster into clusters of two, leave a grid it does not divide or that would not fit
// at once alone, never touch a launch that asked for a cluster itself, and do nothing at its
// default. The kernel here is a host function: the occupancy query fails for it and the library
// falls back to the SM count / 2 clusters, on any machine.
#include <gtest/gtest.h>

#include <kernel/launch.hpp>

namespace {
using strata::detail::LaunchAttributes;

void not_a_kernel(int) {}

// The attributes a launch of `ctas` CTAs gets: (cluster size or 0, programmatic).
std::pair<unsigned, bool> applied(int cluster_size, bool programmatic, unsigned ctas) {
  LaunchAttributes attributes(cluster_size, programmatic);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(ctas);
  attributes.apply(config, &not_a_kernel);
  std::pair<unsigned, bool> seen{0, false};
  for (unsigned i = 0; i < config.numAttrs; ++i) {
    const cudaLaunchAttribute& a = config.attrs[i];
    if (a.id == cudaLaunchAttributeClusterDimension) {
      EXPECT_EQ(seen.first, 0u) << "one cluster attribute at most";
      EXPECT_EQ(a.val.clusterDim.y, 1u);
      EXPECT_EQ(a.val.clusterDim.z, 1u);
      seen.first = a.val.clusterDim.x;
    } else if (a.id == cudaLaunchAttributeProgrammaticStreamSerialization) {
      EXPECT_EQ(a.val.programmaticStreamSerializationAllowed, 1);
      seen.second = true;
    } else {
      ADD_FAILURE() << "an attribute nobody asked for: " << int(a.id);
    }
  }
  return seen;
}

TEST(LaunchAttributes, AskedClustersAndProgrammaticLaunchAreKept) {
  EXPECT_EQ(applied(4, false, 132), std::make_pair(4u, false));
  EXPECT_EQ(applied(2, true, 132), std::make_pair(2u, true));
}

TEST(LaunchAttributes, UnclusteredLaunchesStayUnclusteredByDefault) {
  ASSERT_EQ(strata::detail::study_cluster, 1);
  EXPECT_EQ(applied(1, false, 132), std::make_pair(0u, false));
  EXPECT_EQ(applied(1, true, 132), std::make_pair(0u, true));
}

TEST(LaunchAttributes, StudyKnobPlacesUnclusteredLaunchesInClustersWhereTheGridAllows) {
  struct Restore {
    ~Restore() { strata::detail::study_cluster = 1; }
  } restore;
  strata::detail::study_cluster = 2;
  EXPECT_EQ(applied(1, false, 132), std::make_pair(2u, false));
  EXPECT_EQ(applied(1, true, 132), std::make_pair(2u, true));
  EXPECT_EQ(applied(1, false, 131), std::make_pair(0u, false)) << "an odd grid stays unclustered";
  EXPECT_EQ(applied(1, true, 7), std::make_pair(0u, true));
  const unsigned fit = unsigned(strata::detail::sm_count() / 2 * 2);
  EXPECT_EQ(applied(1, false, fit), std::make_pair(2u, false));
  EXPECT_EQ(strata::detail::study_cluster_used, 2) << "the knob says what it did";
  EXPECT_EQ(applied(1, false, fit + 2), std::make_pair(0u, false)) << "clusters that do not all fit at once";
  EXPECT_EQ(strata::detail::study_cluster_used, 1);
  EXPECT_EQ(applied(4, true, 130), std::make_pair(4u, true)) << "the knob never changes an asked cluster";
}
}  // namespace

#!/usr/bin/env bash
# The incremental build time of the tests after one test file per layer changes (issue 37): each file
# is touched, then `swift build --build-tests` times the rebuild (that test target recompiled, the test
# bundle linked again); SAMPLES samples per file, the median printed. Run it in a checkout whose tests
# are built already with the same flags (it builds once first, untimed, to make sure); the load
# average before and after is printed, since two other builds on the machine double every number.
#   Benchmarks/build/incremental-tests.sh [SAMPLES]     (default 3)
# FLAGS (default `-Xswiftc -warnings-as-errors`, what scripts/test builds with: other flags than the
# last build's recompile everything) goes to every `swift build`.
set -euo pipefail
cd "$(dirname "$0")/../.."
samples=${1:-3}
read -r -a flags <<<"${FLAGS:--Xswiftc -warnings-as-errors}"
# One test file per layer: layer, then the file (these paths are the same before and after the split).
files=(
  System Tests/ThumbifySystemTests/System/FilePathTests.swift
  Imaging Tests/ThumbifyImagingTests/Decoding/PNGDecoderTests.swift
  Fetching Tests/ThumbifyFetchingTests/Fetching/RetryFetchTests.swift
  Extracting Tests/ThumbifyExtractingTests/Extracting/MetadataRulesTests.swift
  Store Tests/ThumbifyStoreTests/Store/StateStoreTests.swift
  Rendering Tests/ThumbifyRenderingTests/RenderRuleTests.swift
  Thumbify Tests/ThumbifyTests/Crawl/CrawlJobTests.swift
  CLI Tests/ThumbifyCLITests/CrawlCommandTests.swift
)
echo "commit $(git rev-parse --short HEAD), $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
swift build --build-tests "${flags[@]}" >/dev/null
printf '%-11s %-55s %s\n' layer file "median s (samples)"
for ((i = 0; i < ${#files[@]}; i += 2)); do
  layer=${files[i]} file=${files[i + 1]}
  times=()
  for ((s = 0; s < samples; s++)); do
    touch "$file"
    start=$(date +%s.%N)
    swift build --build-tests "${flags[@]}" >/dev/null
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((samples + 1) / 2))p")
  printf '%-11s %-55s %.1f (%s)\n' "$layer" "$file" "$median" "$(printf '%.1f ' "${times[@]}" | sed 's/ $//')"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

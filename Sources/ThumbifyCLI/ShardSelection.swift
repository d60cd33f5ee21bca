import Thumbify

/// The shard a crawl runs as: `--shard K/N`, or the array task its scheduler names in the environment.
///
/// | scheduler | index | count |
/// | --- | --- | --- |
/// | Slurm job array (`sbatch --array=0-3`) | `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` | `SLURM_ARRAY_TASK_COUNT` |
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` | `--shards N` |
/// | AWS Batch array job | `AWS_BATCH_JOB_ARRAY_INDEX` | `--shards N` |
///
/// Slurm's ids start where `--array` does (`--array=1-4` gives 1…4), so its minimum is subtracted.
/// Kubernetes and AWS Batch do not tell the size of the array to the task, hence `--shards`.
struct ShardSelection: Sendable, Equatable, CustomStringConvertible {
  var shard: Shard
  /// Where it came from: `--shard`, or the variables read (`SLURM_ARRAY_TASK_ID=2, …`).
  var source: String

  /// The log line: `Crawling shard 2/4 (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4): …`.
  var description: String {
    "Crawling shard \(shard) (\(source)): only the URLs whose registrable domain hashes to \(shard.index) "
      + "modulo \(shard.count)."
  }

  static let schedulers: [(index: String, count: String?)] = [
    ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"),
    ("JOB_COMPLETION_INDEX", nil),
    ("AWS_BATCH_JOB_ARRAY_INDEX", nil),
  ]

  /// `nil` for an unsharded crawl: no `--shard`, and no array index in the environment.
  ///
  /// - Throws: `UsageError` for a malformed `--shard` or `--shards`, an index outside its count,
  ///   `--shards` without an index, or `--shards` disagreeing with `--shard` or Slurm's count.
  static func resolve(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError)
    -> ShardSelection?
  {
    var count: Int?
    if let text = arguments.value("shards") {
      guard let value = Int(text), (1...1_000_000).contains(value) else {
        throw UsageError("The value '\(text)' is invalid for '--shards <n>'")
      }
      count = value
    }
    if let text = arguments.value("shard") {
      guard let shard = Shard(text), shard.count <= 1_000_000 else {
        throw UsageError("The value '\(text)' is invalid for '--shard <k/n>': give K/N with 0 <= K < N")
      }
      if let count, count != shard.count {
        throw UsageError("'--shards \(count)' disagrees with '--shard \(text)'")
      }
      return ShardSelection(shard: shard, source: "--shard \(text)")
    }
    for scheduler in schedulers {
      guard let indexText = environment[scheduler.index] else { continue }
      var index = Int(indexText)
      var source = "\(scheduler.index)=\(indexText)"
      if let countName = scheduler.count {
        guard let countText = environment[countName], let given = Int(countText) else { continue }
        source += ", \(countName)=\(countText)"
        if let count, count != given {
          throw UsageError("'--shards \(count)' disagrees with \(countName)=\(countText)")
        }
        count = given
        if let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap({ Int($0) }), let id = index {
          index = id - minimum
          source += ", SLURM_ARRAY_TASK_MIN=\(minimum)"
        }
      }
      guard let count else {
        throw UsageError("\(scheduler.index) is set: give the number of shards with '--shards <n>'")
      }
      guard let index, let shard = Shard(index: index, count: count) else {
        throw UsageError("\(source) does not name a shard of \(count)")
      }
      return ShardSelection(shard: shard, source: source)
    }
    if count != nil {
      throw UsageError(
        "'--shards' needs an array index: --shard K/N, or SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or "
          + "AWS_BATCH_JOB_ARRAY_INDEX in the environment")
    }
    return nil
  }
}

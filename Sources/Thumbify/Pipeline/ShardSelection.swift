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
package struct ShardSelection: Sendable, Equatable, CustomStringConvertible {
  /// Why the shard given and the environment name no shard (the message is the usage error's).
  package struct Error: Swift.Error, Sendable, Equatable {
    package var message: String
  }

  package var shard: Shard
  /// Where it came from: `--shard`, or the variables read (`SLURM_ARRAY_TASK_ID=2, …`).
  package var source: String

  /// The most shards a crawl can be split into.
  package static let maximumCount = 1_000_000

  /// The log line: `Crawling shard 2/4 (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_COUNT=4): …`.
  package var description: String {
    "Crawling shard \(shard) (\(source)): only the URLs whose registrable domain hashes to \(shard.index) "
      + "modulo \(shard.count)."
  }

  static let schedulers: [(index: String, count: String?)] = [
    ("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"),
    ("JOB_COMPLETION_INDEX", nil),
    ("AWS_BATCH_JOB_ARRAY_INDEX", nil),
  ]

  /// The shard `shard` (`--shard`) names, else the one an array task's environment names; `nil` for an
  /// unsharded crawl (neither).
  ///
  /// - Parameter shards: the number of shards (`--shards`), for an index taken from the environment.
  /// - Throws: `ShardSelection.Error` when `shards` disagrees with `shard` or Slurm's count, the
  ///   environment's index is outside the count, or `shards` is given without an index.
  package init?(shard: Shard?, shards: Int?, environment: [String: String]) throws(Error) {
    var count = shards
    if let shard {
      if let count, count != shard.count {
        throw Error(message: "'--shards \(count)' disagrees with '--shard \(shard)'")
      }
      self.init(shard: shard, source: "--shard \(shard)")
      return
    }
    for scheduler in Self.schedulers {
      guard let indexText = environment[scheduler.index] else { continue }
      var index = Int(indexText)
      var source = "\(scheduler.index)=\(indexText)"
      if let countName = scheduler.count {
        guard let countText = environment[countName], let given = Int(countText) else { continue }
        source += ", \(countName)=\(countText)"
        if let count, count != given {
          throw Error(message: "'--shards \(count)' disagrees with \(countName)=\(countText)")
        }
        count = given
        if let minimum = environment["SLURM_ARRAY_TASK_MIN"].flatMap({ Int($0) }), let id = index {
          index = id - minimum
          source += ", SLURM_ARRAY_TASK_MIN=\(minimum)"
        }
      }
      guard let count else {
        throw Error(message: "\(scheduler.index) is set: give the number of shards with '--shards <n>'")
      }
      guard let index, let shard = Shard(index: index, count: count) else {
        throw Error(message: "\(source) does not name a shard of \(count)")
      }
      self.init(shard: shard, source: source)
      return
    }
    if count != nil {
      throw Error(
        message: "'--shards' needs an array index: --shard K/N, or SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX "
          + "or AWS_BATCH_JOB_ARRAY_INDEX in the environment")
    }
    return nil
  }

  package init(shard: Shard, source: String) {
    self.shard = shard
    self.source = source
  }
}

import Dispatch
import Foundation

/// Maps an array on every core, keeping the order: the report's manifest decoding and page
/// encoding, which are independent per line and per page.
package enum ParallelMap {
  /// `items.map(transform)`, with `transform` called from several threads at once.
  ///
  /// - Complexity: O(n) work spread over `ProcessInfo.activeProcessorCount` threads.
  package static func map<Item: Sendable, Result: Sendable>(
    _ items: [Item], _ transform: @Sendable (Item) -> Result
  ) -> [Result] {
    let workers = min(items.count, ProcessInfo.processInfo.activeProcessorCount)
    guard workers > 1 else { return items.map(transform) }
    let slots = Slots<Result>(count: items.count)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for index in stride(from: worker, to: items.count, by: workers) {
        slots.store(transform(items[index]), at: index)
      }
    }
    return slots.values()
  }

  /// The results, one slot per item.
  ///
  /// `@unchecked Sendable`: confined by construction — each index is written by exactly one
  /// iteration of `concurrentPerform`, and the slots are read only after it has returned.
  private final class Slots<Value: Sendable>: @unchecked Sendable {
    private let count: Int
    private let base: UnsafeMutablePointer<Value?>

    init(count: Int) {
      self.count = count
      base = .allocate(capacity: count)
      base.initialize(repeating: nil, count: count)
    }

    deinit {
      base.deinitialize(count: count)
      base.deallocate()
    }

    func store(_ value: Value, at index: Int) {
      base[index] = value
    }

    func values() -> [Value] {
      UnsafeBufferPointer(start: base, count: count).compactMap { $0 }
    }
  }
}

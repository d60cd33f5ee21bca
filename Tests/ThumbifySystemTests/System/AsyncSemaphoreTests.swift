import Synchronization
import Testing
import ThumbifySystem

@Suite("Async semaphore", .timeLimit(.minutes(5)))
struct AsyncSemaphoreTests {
  @Test func atMostWidthHoldersAndTheOthersInOrder() async {
    // Given a semaphore of width 2 whose slots are both taken
    let semaphore = AsyncSemaphore(width: 2)
    #expect(await semaphore.acquire())
    #expect(await semaphore.acquire())

    // When three tasks queue up, one after the other
    let order = Order()
    var waiters: [Task<Void, Never>] = []
    for index in 0..<3 {
      waiters.append(
        Task {
          guard await semaphore.acquire() else { return }
          order.entries.withLock { $0.append(index) }
        })
      await Self.waitUntil { semaphore.waiterCount == index + 1 }
    }

    // Then none got in, and each release lets the longest-waiting one in
    #expect(order.entries.withLock { $0 }.isEmpty)
    for expected in 0..<3 {
      semaphore.release()
      await waiters[expected].value
      #expect(order.entries.withLock { $0 } == Array(0...expected))
    }
  }

  @Test func aCancelledWaiterLeavesTheQueueHoldingNoSlot() async {
    // Given a semaphore of width 1, taken, and a task waiting for it
    let semaphore = AsyncSemaphore(width: 1)
    #expect(await semaphore.acquire())
    let waiter = Task { await semaphore.acquire() }
    await Self.waitUntil { semaphore.waiterCount == 1 }

    // When the waiter is cancelled
    waiter.cancel()

    // Then it gets no slot and leaves the queue, and the slot is still there for the next one
    #expect(await waiter.value == false)
    #expect(semaphore.waiterCount == 0)
    semaphore.release()
    #expect(await semaphore.acquire())
  }

  @Test func aTaskCancelledBeforeItAsksWaitsForNothing() async {
    // Given a taken semaphore and a task that is already cancelled when it asks
    let semaphore = AsyncSemaphore(width: 1)
    #expect(await semaphore.acquire())
    let cancelled = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await semaphore.acquire()
    }

    // Then it is refused at once instead of queueing
    #expect(await cancelled.value == false)
    #expect(semaphore.waiterCount == 0)
  }

  /// The order in which the waiters got in.
  final class Order: Sendable {
    let entries = Mutex<[Int]>([])
  }

  /// Yields until `condition` holds (the other task has queued).
  static func waitUntil(_ condition: () -> Bool) async {
    while !condition() { await Task.yield() }
  }
}

import Testing

@testable import Thumbify

/// `DeadlineWatch`: the live fetch's deadline in `CardService`, one watching task for all fetches.
@Suite("DeadlineWatch", .timeLimit(.minutes(10)))
struct DeadlineWatchTests {
  @Test("work done before its deadline gives its value, and nothing stays watched")
  func inTime() async {
    let watch = DeadlineWatch()
    let values = await withTaskGroup(of: Int?.self) { group in
      for index in 0..<100 {
        group.addTask { await watch.run(deadline: .seconds(600)) { index } }
      }
      return await group.reduce(into: [Int]()) { if let value = $1 { $0.append(value) } }
    }
    #expect(values.sorted() == Array(0..<100))
    #expect(watch.count == 0)
  }

  @Test("work past its deadline is cancelled and gives nil; work beside it is not cancelled")
  func pastTheDeadline() async {
    let watch = DeadlineWatch(tick: .milliseconds(10))
    async let late = watch.run(deadline: .milliseconds(50)) { () -> Bool in
      // Sleeps until cancelled (ten minutes at most: the suite's limit ends it first).
      try? await Task.sleep(for: .seconds(600))
      return Task.isCancelled
    }
    async let slow = watch.run(deadline: .seconds(600)) { () -> Bool in
      try? await Task.sleep(for: .milliseconds(200))
      return Task.isCancelled
    }
    #expect(await late == nil)
    #expect(await slow == false)
    #expect(watch.count == 0)
  }

  @Test("cancelling the caller cancels its work, which still ends before the call returns")
  func callerCancelled() async {
    let watch = DeadlineWatch()
    let call = Task {
      await watch.run(deadline: .seconds(600)) { () -> Bool in
        try? await Task.sleep(for: .seconds(600))
        return Task.isCancelled
      }
    }
    call.cancel()
    #expect(await call.value == true)
    #expect(watch.count == 0)
  }
}

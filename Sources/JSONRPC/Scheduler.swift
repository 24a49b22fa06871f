import Dispatch
import Posix
import Synchronization

/// Where each request runs beside the others. One table (`waits(_:behind:writeWaitsOutside:)`)
/// says what waits for what, as sourcekit-lsp's dependency tracker does; work that waits is a
/// closure queued here, never a parked thread.
///
/// A write waits for every read and write that arrived before it, so writes run one at a time in
/// arrival order; a read waits for the writes before it, unless the running write waits for
/// something outside the process (a busy write's wake-up, `Step.after`): reads then go ahead of it
/// and of the writes queued behind it. Background work (`background` methods, batches) waits for
/// nothing but a slot: at most `backgroundLimit` run at once, in arrival order. A cancel waits for
/// nothing. Work that may start when it arrives runs on the caller's thread (`runHere`: the reader,
/// with no hand-off); work queued runs where it is started: writes on the write queue and reads on
/// the read queue, each in order, background work on a concurrent queue (Dispatch gives one that
/// blocks on the network a thread of its own).
final class Scheduler: Sendable {
  enum Kind: Sendable {
    case read, write, background
    /// A cancel: it only marks another request, so it waits for nothing and nothing waits for it.
    case immediate
  }

  /// What a job did when it returned.
  enum Step: Sendable {
    case finished
    /// It waits for something outside the process: `wake` calls `resume` once it may have passed,
    /// and it runs again then, ahead of the writes queued behind it. (Only writes wait so.)
    case waits(_ wake: @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void)
    /// It goes on elsewhere and says its next step when it has one (a deferred method's reply). A
    /// write or background job keeps its place meanwhile; a read has finished as far as the table
    /// goes (a long-lived stream must not hold the writes behind it).
    case later(_ next: @Sendable (_ step: @escaping @Sendable (Step) -> Void) -> Void)
  }

  typealias Job = @Sendable () -> Step

  /// The table: whether work of kind `later` waits for unfinished work of kind `earlier` that
  /// arrived before it.
  static func waits(_ later: Kind, behind earlier: Kind, writeWaitsOutside: Bool = false) -> Bool {
    switch (later, earlier) {
    case (.write, .write), (.write, .read): true
    case (.read, .write): !writeWaitsOutside
    case (.read, .read), (.background, _), (_, .background), (.immediate, _), (_, .immediate): false
    }
  }

  private struct Entry {
    let kind: Kind
    let job: Job
  }

  /// Work queued, with its place in arrival order (`order`).
  private struct Queued {
    let order: Int
    let job: Job
  }

  private struct State {
    var arrivals = 0
    var reads = Queue<Queued>()
    var writes = Queue<Queued>()
    var background = Queue<Job>()
    var readsRunning = 0
    /// The running write's place in arrival order; nil when none runs.
    var writeRunning: Int?
    var writeWaitsOutside = false
    var backgroundRunning = 0

    /// The first write a read arriving after it waits for (`waits(.read, behind: .write)`): the
    /// running one, or the first queued when none runs. A write that waits outside lets every read
    /// go, those behind the writes queued behind it too: they cannot run before it.
    var firstBlockingWrite: Int {
      if let running = writeRunning {
        return Scheduler.waits(.read, behind: .write, writeWaitsOutside: writeWaitsOutside) ? running : .max
      }
      return writes.first?.order ?? .max
    }

    /// Whether a write arriving at `order` may start: no write runs (`waits(.write, behind:
    /// .write)`) and no read runs or waits before it (`waits(.write, behind: .read)`). A read
    /// running that went ahead of it while a write waited outside is waited for too: it is short,
    /// and new reads queue behind this write meanwhile.
    func writeMayStart(at order: Int) -> Bool {
      writeRunning == nil && readsRunning == 0 && (reads.first?.order ?? .max) > order
    }

    mutating func nextOrder() -> Int {
      defer { arrivals += 1 }
      return arrivals
    }

    /// Takes what may start now: reads first (a read before the next write starts before it).
    mutating func startable(backgroundLimit: Int) -> [Entry] {
      var started: [Entry] = []
      while let read = reads.first, read.order < firstBlockingWrite {
        reads.removeFirst()
        readsRunning += 1
        started.append(Entry(kind: .read, job: read.job))
      }
      if let write = writes.first, writeMayStart(at: write.order) {
        writes.removeFirst()
        writeRunning = write.order
        started.append(Entry(kind: .write, job: write.job))
      }
      while backgroundRunning < backgroundLimit, let job = background.first {
        background.removeFirst()
        backgroundRunning += 1
        started.append(Entry(kind: .background, job: job))
      }
      return started
    }

    /// Takes a place for work of `kind` to run now, when the table lets it and nothing of its kind
    /// is queued before it.
    mutating func takeNow(_ kind: Kind, backgroundLimit: Int) -> Bool {
      switch kind {
      case .read:
        guard reads.isEmpty, firstBlockingWrite == .max else { return false }
        _ = nextOrder()
        readsRunning += 1
      case .write:
        guard writes.isEmpty, reads.isEmpty, writeMayStart(at: arrivals) else { return false }
        writeRunning = nextOrder()
      case .background:
        guard background.isEmpty, backgroundRunning < backgroundLimit else { return false }
        backgroundRunning += 1
      case .immediate: break
      }
      return true
    }
  }

  let backgroundLimit: Int
  private let state = Mutex(State())
  private let writes = DispatchQueue(label: "inbox-rpc.writes")
  private let reads = DispatchQueue(label: "inbox-rpc.reads")
  private let workers = DispatchQueue(label: "inbox-rpc.workers", attributes: .concurrent)
  private let unfinished = DispatchGroup()

  init(backgroundLimit: Int = 16) { self.backgroundLimit = backgroundLimit }

  /// Runs `job` on the calling thread when work of `kind` may start now and nothing of its order
  /// is queued before it; false (not run) otherwise.
  func runHere(_ kind: Kind, _ job: @escaping Job) -> Bool {
    let taken = state.withLock { $0.takeNow(kind, backgroundLimit: backgroundLimit) }
    guard taken else { return false }
    unfinished.enter()
    follow(job(), of: Entry(kind: kind, job: job))
    return true
  }

  /// Queues `job`; it starts as soon as the table lets it.
  func submit(_ kind: Kind, _ job: @escaping Job) {
    unfinished.enter()
    let started = state.withLock { state -> [Entry] in
      switch kind {
      case .read: state.reads.append(Queued(order: state.nextOrder(), job: job))
      case .write: state.writes.append(Queued(order: state.nextOrder(), job: job))
      case .background: state.background.append(job)
      case .immediate: return [Entry(kind: .immediate, job: job)]
      }
      return state.startable(backgroundLimit: backgroundLimit)
    }
    start(started)
  }

  private func start(_ entries: [Entry]) {
    for entry in entries {
      let queue =
        switch entry.kind {
        case .read: reads
        case .write: writes
        case .background, .immediate: workers
        }
      queue.async { [self] in follow(entry.job(), of: entry) }
    }
  }

  /// Takes the job's next step. `holdsPlace`: the table still counts it as running.
  private func follow(_ step: Step, of entry: Entry, holdsPlace: Bool = true) {
    switch step {
    case .later(let next):
      // A read that goes on elsewhere has done its reading: the writes behind it may start.
      let holds = holdsPlace && entry.kind != .read
      if holdsPlace, !holds { release(entry.kind) }
      next { [self] step in follow(step, of: entry, holdsPlace: holds) }
    case .finished:
      if holdsPlace { release(entry.kind) }
      // Left once the table says so: a wait for the scheduler to empty sees it idle.
      unfinished.leave()
    case .waits where entry.kind != .write:
      // Only a write waits outside (it has a patience); anything else has finished.
      follow(.finished, of: entry, holdsPlace: holdsPlace)
    case .waits(let wake):
      start(
        state.withLock { state in
          state.writeWaitsOutside = true
          return state.startable(backgroundLimit: backgroundLimit)
        })
      wake { [self] in
        state.withLock { $0.writeWaitsOutside = false }
        writes.async { [self] in follow(entry.job(), of: entry) }
      }
    }
  }

  /// The table no longer counts a job of `kind` as running: what waited for it may start.
  private func release(_ kind: Kind) {
    start(
      state.withLock { state in
        switch kind {
        case .read: state.readsRunning -= 1
        case .write: (state.writeRunning, state.writeWaitsOutside) = (nil, false)
        case .background: state.backgroundRunning -= 1
        case .immediate: break
        }
        return state.startable(backgroundLimit: backgroundLimit)
      })
  }

  /// Waits until all work submitted has finished, at most until `deadline`; false on time-out.
  func waitUntilIdle(until deadline: DispatchTime) -> Bool {
    unfinished.wait(timeout: deadline) == .success
  }
}

extension Scheduler.Step {
  /// The one retry rule: a busy write waits for its wake-up, as its patience allows, and runs again
  /// then; once that has passed, or when it is done, `done` gets its outcome.
  static func after<T>(
    _ attempt: WriteAttempt<T>, _ patience: Patience?, done: (Result<T, any Error>) -> Void
  ) -> Scheduler.Step {
    switch attempt {
    case .done(let result):
      done(result)
    case .busy(_, let tooLong):
      if let wait = patience?.nextWake(after: attempt) { return .waits(wait) }
      done(tooLong)
    }
    return .finished
  }
}

/// A first-in, first-out queue whose `removeFirst` costs nothing: the head moves, and the storage
/// is compacted once half of it is behind the head.
struct Queue<Element> {
  private var storage: [Element] = []
  private var head = 0

  var isEmpty: Bool { head == storage.count }
  var first: Element? { isEmpty ? nil : storage[head] }

  mutating func append(_ element: Element) { storage.append(element) }

  mutating func removeFirst() {
    head += 1
    if head == storage.count {
      (storage, head) = ([], 0)
    } else if head >= 64, head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
  }
}

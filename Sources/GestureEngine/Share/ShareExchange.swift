import GestureInput
import GestureSystem
import Synchronization

/// The one place a shared device's thread and the engine's loop meet: the
/// mail between them under a `Mutex`, and a wakeup pipe each way. Everything
/// that crosses is a value: commands one way; records, signals, news and the
/// end the other.
final class ShareExchange: Sendable {
    /// The engine's loop polls it: records, news or the end are waiting.
    let engineWake: Wakeup
    /// The share's thread polls it: commands are waiting, or the engine caught up.
    let workerWake: Wakeup
    private let mail: Mutex<ShareMail>

    /// Nil when the system would not make the pipes.
    init?(capacity: Int = ShareMailbox.capacity) {
        guard let engineWake = Wakeup(), let workerWake = Wakeup() else { return nil }
        self.engineWake = engineWake
        self.workerWake = workerWake
        mail = Mutex(ShareMail(records: ShareMailbox(capacity: capacity)))
    }

    // MARK: The engine's side

    func send(_ command: ShareCommand) {
        mail.withLock { $0.commands.append(command) }
        workerWake.signal()
    }

    /// What the thread has for the engine since it last looked.
    func take() -> ShareDelivery {
        engineWake.drain()
        let (delivery, wasDropping) = mail.withLock { mail -> (ShareDelivery, Bool) in
            let dropping = mail.records.isDropping
            let (records, dropped) = mail.records.take()
            let delivery = ShareDelivery(records: records, dropped: dropped, signals: mail.signals, news: mail.news, end: mail.end)
            mail.signals.removeAll()
            mail.news.removeAll()
            return (delivery, dropping)
        }
        // The thread hands over the device's state now, not at the next read.
        if wasDropping { workerWake.signal() }
        return delivery
    }

    /// Where the records' mailbox stands: a test waits on it, as the loop never needs to.
    var flow: ShareMailbox.Flow { mail.withLock { $0.records.flow } }

    // MARK: The thread's side

    /// The engine's commands, in order; `resumed` when a drop ended because
    /// the engine caught up (`state` gave the device's state for it).
    func collect(state: () -> [UInt8]) -> (commands: [ShareCommand], resumed: Bool) {
        workerWake.drain()
        return mail.withLock { mail in
            var resumed = false
            if mail.records.isDropping {
                mail.records.resumeIfCaughtUp(state: state)
                resumed = !mail.records.isDropping
            }
            defer { mail.commands.removeAll() }
            return (mail.commands, resumed)
        }
    }

    /// Hands the engine a step's outcome and wakes it.
    func deliver(records: [UInt8], signals: [ShareSignal], news: [ShareNews], end: ShareEnd?, state: () -> [UInt8]) {
        mail.withLock { mail in
            records.withUnsafeBytes { mail.records.put($0, state: state) }
            mail.signals += signals
            mail.news += news
            if let end { mail.end = end }
        }
        engineWake.signal()
    }
}

/// What waits between the two threads; only ever reached under the exchange's lock.
struct ShareMail: Sendable {
    /// Engine → thread.
    var commands: [ShareCommand] = []
    /// Thread → engine: the device's records, in order, as read; bounded.
    var records: ShareMailbox
    var signals: [ShareSignal] = []
    var news: [ShareNews] = []
    /// The thread ended.
    var end: ShareEnd?
}

/// What the engine asks of a share's thread.
enum ShareCommand: Equatable, Sendable {
    /// A claimed rule recognized the sequence.
    case claim
    /// The recognizers decided the pending sequence is none of the claimed ones.
    case release
    /// The rules were reloaded.
    case update(ShareSettings)
    /// The keyboards' modifiers held now (`ModifierWheel`'s bits): a mouse's gate claims the wheel with them.
    case modifiers(UInt8)
    /// Sharing ends: nothing is left down on the clone, and the clone goes.
    case stop
}

/// What the thread tells the engine besides records and the gate's signals;
/// the engine words it.
enum ShareNews: Equatable, Sendable {
    /// A write to the clone failed: the first of the run (later ones are not told).
    case cloneWriteFailed(UinputAccessError)
}

/// Why a share's thread ended. The clone is gone by the time the engine hears it.
enum ShareEnd: Equatable, Sendable {
    /// The device is gone (its end, ENODEV).
    case unplugged
    /// Reading it failed with this errno.
    case readFailed(Int32)
    /// Waiting for it failed with this errno (poll(2), or a descriptor poll refused).
    case waitFailed(Int32)
    /// Sharing stopped (the escape, or the engine asked): the device is the engine's to read again.
    case stopped
}

/// What the engine takes from the thread at a time.
struct ShareDelivery: Sendable {
    var records: [UInt8]
    /// Records dropped for the rules while the engine was behind (the desktop had them).
    var dropped: Int?
    var signals: [ShareSignal]
    var news: [ShareNews]
    var end: ShareEnd?
}

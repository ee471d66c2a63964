import GestureSystem

/// The programs doctor asks (the desktop's, the service manager), started
/// together when doctor begins and read under one deadline: `budget` seconds
/// for all of them, and for the app source's answer, so a program that hangs
/// costs doctor `budget` seconds once, however many it asks.
final class DoctorPrograms {
    static let budget = 3.0

    let environment: [String: String]
    private let batch: ProgramBatch
    private var tickets: [[String]: ProgramBatch.Ticket?] = [:]

    var deadline: Double { batch.deadline }

    /// Starts each of `commands` now.
    init(environment: [String: String], deadline: Double, commands: [[String]]) {
        self.environment = environment
        batch = ProgramBatch(deadline: deadline)
        for argv in commands where tickets[argv] == nil { tickets[argv] = batch.start(argv, environment: environment) }
    }

    /// What `argv` printed and how it ended; nil when it is not installed. One
    /// not started with the others starts now, under the same deadline.
    func answer(_ argv: [String]) -> ProgramOutput.Result? {
        if tickets[argv] == nil { tickets[argv] = batch.start(argv, environment: environment) }
        return tickets[argv]?.map(batch.result)
    }

    /// The finding for a program that ran out of the shared time, and `so`, what goes unchecked.
    static func unanswered(_ argv: [String], so: String?) -> DoctorFinding {
        let command = argv.joined(separator: " ")
        return DoctorFinding(.warning, "\(command) did not answer within \(Int(budget)) s: stopped it, with all it started" + (so.map { "; " + $0 } ?? ""),
                             fix: "run \(command) yourself to see where it hangs (doctor gives the programs it asks \(Int(budget)) s in all)")
    }
}

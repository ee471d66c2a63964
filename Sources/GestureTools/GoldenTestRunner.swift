import Glibc
import GestureEngine
import GestureCore
import GestureActions
import GestureSystem

/// Runs golden cases through the engine as `run --dry-run` would, each with a
/// fresh Lua state, and compares what they print with their expectations.
public struct GoldenTestRunner {
    /// The run's options for every case; the input is replaced per case.
    public var options: RunOptions
    /// An expectation is a few lines per gesture: past this it is not one.
    static let largestExpectation = 64 << 20

    public init(options: RunOptions) {
        self.options = options.forReplayTool
    }

    public enum Verdict: Equatable, Sendable {
        case passed
        /// The output differs; the diff for people.
        case failed(diff: [String])
        /// There is no expectation yet.
        case unexpected
        /// The run itself failed (unreadable input, bad data under --strict).
        case broken(ExitCode)
    }

    public struct Outcome: Sendable {
        public var testCase: GoldenCase
        public var verdict: Verdict
        public var actual: [String]
        /// What the run said on stderr: bad lines, handler errors, log().
        public var messages: [String]
        /// Lines of the expectations file that are not JSON, `FILE:LINE: ...`.
        public var expectationProblems: [String]
    }

    /// Runs one case; a progress bar for a big recording goes to `progress`.
    public func run(_ testCase: GoldenCase, progress: Console? = nil) -> Outcome {
        var runOptions = options
        runOptions.inputs = [testCase.input]
        var messages: [String] = []
        let console = Console()
        console.capture = { messages.append($0) }
        let sink = CollectingSink()
        guard let engine = Engine(options: runOptions, console: console, output: sink) else {
            return Outcome(testCase: testCase, verdict: .broken(.unavailable), actual: [], messages: messages, expectationProblems: [])
        }
        engine.progressConsole = progress
        let status = engine.run()
        var outcome = Outcome(testCase: testCase, verdict: .passed, actual: sink.lines, messages: messages, expectationProblems: [])
        guard status == .ok else {
            outcome.verdict = .broken(status)
            return outcome
        }
        let bytes: [UInt8]
        switch BoundedFile.read(testCase.expected, limit: GoldenTestRunner.largestExpectation) {
        case .success(let read): bytes = read
        case .failure(let error):
            // No expectation yet is what --update is for; one that cannot be read is a problem.
            if error.errno != ENOENT { outcome.expectationProblems.append(error.message) }
            outcome.verdict = .unexpected
            return outcome
        }
        var expected: [OutputLine] = []
        for (n, line) in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = line.hasSuffix("\r") ? String(line.dropLast()) : String(line)
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let parsed = OutputLine(text)
            if parsed.value == nil, case .failure(let error) = Result(catching: { () throws(JSONParseError) in try JSONValue.parse(text) }) {
                outcome.expectationProblems.append("\(testCase.expected):\(n + 1): not JSON (\(error.description)); it can only match a line of the same text")
            }
            expected.append(parsed)
        }
        let actual = sink.lines.map(OutputLine.init)
        let same = expected.count == actual.count && zip(expected, actual).allSatisfy { $0.matches($1) }
        if !same { outcome.verdict = .failed(diff: LineDiff.render(expected: expected, actual: actual)) }
        return outcome
    }

    /// `--update`: the case's actual output becomes its expectation.
    public static func accept(_ outcome: Outcome) throws(FileError) {
        var text = outcome.actual.joined(separator: "\n")
        if !text.isEmpty { text += "\n" }
        try FileSystem.replace(outcome.testCase.expected, with: Array(text.utf8))
    }
}

/// Emitted lines, kept in memory.
public final class CollectingSink: LineSink {
    public private(set) var lines: [String] = []

    public init() {}

    public func write(line: String) {
        lines.append(line)
    }
}

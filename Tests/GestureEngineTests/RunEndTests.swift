import Testing
@testable import GestureEngine

/// The run's one end state: which reason to stop wins, and the status it returns.
@Suite struct RunEndTests {
    @Test("a run that goes on returns what its session returned")
    func goesOn() {
        #expect(RunEnd.goesOn.status(after: .noInput) == .noInput)
        #expect(!RunEnd.goesOn.isOver)
    }

    @Test("a stop ends the run as at its input's end, with status 0; a later signal marks it signalled")
    func stop() {
        var end = RunEnd.goesOn
        end.stop(bySignal: false)
        #expect(end == .stopped(bySignal: false))
        #expect(end.status(after: .dataError) == .ok)
        end.stop(bySignal: true)
        #expect(end == .stopped(bySignal: true))
        end.stop(bySignal: false)
        #expect(end == .stopped(bySignal: true))
    }

    @Test("the input's end decides only while nothing else has")
    func inputFailed() {
        var end = RunEnd.goesOn
        end.inputFailed(.dataError)
        end.inputFailed(.noInput)
        #expect(end == .inputFailed(.dataError))
        #expect(end.status(after: .ok) == .dataError)
        var stopped = RunEnd.stopped(bySignal: true)
        stopped.inputFailed(.noInput)
        #expect(stopped == .stopped(bySignal: true))
    }

    @Test("the first failure is reported, outranks an input's end, and is worked out only when it decides")
    func failure() {
        var worked = 0
        func status(_ code: ExitCode) -> ExitCode {
            worked += 1
            return code
        }
        var end = RunEnd.inputFailed(.dataError)
        end.fail(status(.unavailable))
        #expect(end == .failed(.unavailable))
        end.fail(status(.cannotWrite))
        #expect(end == .failed(.unavailable))
        #expect(worked == 1)
        var stopped = RunEnd.stopped(bySignal: false)
        stopped.fail(status(.cannotWrite))
        #expect(stopped == .stopped(bySignal: false))
        #expect(worked == 1)
        #expect(end.status(after: .ok) == .unavailable)
    }
}

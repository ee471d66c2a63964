@testable import GestureScript
import GestureCore
import Testing

@Suite("Messages about exec(), shell() and key(), word for word")
struct ExecMessageTests {
    @Test("exec()'s options and texts")
    func execTexts() {
        #expect(ExecOptionError.timeout.description == #"exec option "timeout" must be a number of seconds above 0"#)
        #expect(ExecOptionError.directoryNotPath.description == #"exec option "cwd" must be a directory's path"#)
        #expect(ExecOptionError.directory(.notUTF8(.directory)).description == #"exec option "cwd" is not valid UTF-8"#)
        #expect(ExecOptionError.environmentNotStrings.description == #"exec option "env" must map names to strings"#)
        #expect(ExecOptionError.environment(.tooLong(.value(of: "PATH"), bytes: 70000)).description
            == #"exec option "env": the value of PATH is 70000 bytes long, more than the 65536 bytes one exec may pass"#)
        #expect(ExecOptionError.environmentTooLarge.description
            == #"exec option "env": the environment comes to more than 65536 bytes with the arguments"#)
        #expect(ExecTextError.notText(.argument(3), .table).description == "argument 3 is a table; it must be a string or a number")
        #expect(ExecTextError.nul(.commandLine).description == #"the command line contains a NUL byte (\0), which no program can receive"#)
        #expect(ExecText.value(of: String(repeating: "K", count: 70)).description
            == "the value of " + String(repeating: "K", count: 64) + "... (6 more bytes)")
    }

    @Test("a host without programs or keys says so")
    func unavailable() throws {
        #expect(HostActionError.unavailable(.exec).description == "exec is not available here")
        #expect(HostActionError.unavailable(.key).description == "key is not available here")
        let (runtime, host) = try loadRules("""
        on("tap", function(g)
          local ok, err = exec({ "true" })
          emit("exec", { ok = ok, err = err })
          key("Next")
        end)
        """)
        runtime.dispatch(Delivery(rule: 0, event: GestureEvent(kind: .tap, phase: .ended, fingers: 1, time: 1)))
        #expect(host.lines == [#"{"action":"exec","t":1,"err":"exec is not available here","ok":false}"#])
        #expect(host.messages.count == 2)
        #expect(host.messages.first == "rules.lua:2: exec is not available here")
        #expect(host.messages.last.map(firstLine) == "rules.lua:4: key is not available here")
    }
}

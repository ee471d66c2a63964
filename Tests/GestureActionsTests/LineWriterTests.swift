#if canImport(Glibc)
import Glibc
#endif
import GestureActions
import Testing

@Suite("Line writer")
struct LineWriterTests {
    /// Everything written to a pipe's write end, read back from its read end.
    static func written(_ body: (LineWriter) -> Void) -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return "<no pipe>" }
        let writer = LineWriter(fd: fds[1])
        body(writer)
        close(fds[1])
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        close(fds[0])
        return String(decoding: out, as: UTF8.self)
    }

    @Test("each line is out, with its newline, as soon as it is written")
    func lineBuffered() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = LineWriter(fd: fds[1])
        writer.write(line: #"{"action":"next_page","t":1}"#)
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(fds[0], &buffer, buffer.count)
        #expect(String(decoding: buffer[0..<max(n, 0)], as: UTF8.self) == "{\"action\":\"next_page\",\"t\":1}\n")
        close(fds[0])
        close(fds[1])
    }

    @Test("lines keep their order and bytes")
    func order() {
        let text = Self.written { w in
            for i in 0..<100 { w.write(line: "line \(i) é") }
        }
        #expect(text == (0..<100).map { "line \($0) é\n" }.joined())
    }

    @Test("a closed reader breaks the writer quietly instead of killing the process")
    func closedReader() {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        let writer = LineWriter(fd: fds[1])
        writer.write(line: "lost")
        #expect(writer.broken)
        writer.write(line: "also lost")
        close(fds[1])
    }
}

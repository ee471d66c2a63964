#if canImport(Glibc)
import Glibc
#endif
import Foundation
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
        let text = readAll(fds[0])
        close(fds[0])
        return text
    }

    static func readAll(_ fd: Int32) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
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

    @Test("a closed reader is a quiet failure, not a dead process, and later lines are not tried")
    func closedReader() {
        signal(SIGPIPE, SIG_IGN)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])
        let writer = LineWriter(fd: fds[1])
        writer.write(line: "lost")
        #expect(writer.failure == .readerGone)
        #expect(writer.failure?.message == nil)
        writer.write(line: "also lost")
        #expect(writer.failure == .readerGone)
        close(fds[1])
    }

    @Test("a full disk is a failure that names the output and the reason",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDisk() {
        let fd = open("/dev/full", O_WRONLY)
        #expect(fd >= 0)
        let writer = LineWriter(fd: fd, name: "/dev/full")
        writer.write(line: #"{"action":"next_page","t":1}"#)
        #expect(writer.failure == .writeError(output: "/dev/full", errno: ENOSPC))
        #expect(writer.failure?.message == "cannot write to /dev/full: No space left on device")
        close(fd)
    }

    @Test("a descriptor that is not open for writing is a write error, not a quiet stop")
    func readOnlyDescriptor() {
        let fd = open("/dev/null", O_RDONLY)
        let writer = LineWriter(fd: fd)
        #expect(writer.hangupDescriptor == nil)
        writer.write(bytes: Array("x\n".utf8))
        #expect(writer.failure == .writeError(output: "standard output", errno: EBADF))
        close(fd)
    }

    @Test("without writing, a pipe's reader is seen to leave; while it is there, nothing is reported")
    func readerLeavesBetweenLines() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = LineWriter(fd: fds[1])
        #expect(writer.hangupDescriptor == fds[1])
        writer.checkReader()
        #expect(writer.failure == nil)
        close(fds[0])
        writer.checkReader()
        #expect(writer.failure == .readerGone)
        close(fds[1])
    }

    @Test("a regular file or /dev/null never looks like a reader that left")
    func filesNeverHangUp() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("linewriter-\(UUID().uuidString)").path
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let null = open("/dev/null", O_WRONLY)
        defer { unlink(path) }
        for fd in [file, null] {
            let writer = LineWriter(fd: fd, name: path)
            writer.checkReader()
            writer.write(line: "kept")
            writer.checkReader()
            #expect(writer.failure == nil)
            writer.close()
            #expect(writer.failure == nil)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "kept\n")
    }

    @Test("a non-blocking output that fills up waits for room instead of dropping lines")
    func nonBlockingOutput() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        let reader = fds[0]
        // The pipe holds 64 KiB: each 256 KiB line fills it several times over.
        final class Received: @unchecked Sendable { var text = "" }
        let received = Received()
        let thread = Thread { received.text = Self.readAll(reader) }
        thread.start()
        let line = String(repeating: "a", count: 256 << 10)
        let writer = LineWriter(fd: fds[1])
        for _ in 0..<4 { writer.write(line: line) }
        #expect(writer.failure == nil)
        close(fds[1])
        while !thread.isFinished { usleep(1000) }
        #expect(received.text == String(repeating: line + "\n", count: 4))
        close(reader)
    }

    @Test("held lines wait for a flush; each write of them is whole lines within PIPE_BUF, in order")
    func heldLines() throws {
        var fds: [Int32] = [0, 0]
        // A packet socket keeps each write(2) apart, so its bounds can be seen.
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let writer = LineWriter(fd: fds[1])
        writer.holdLines(true)
        let lines = (0..<300).map { #"{"action":"swipe","t":\#($0).5,"pad":"\#(String(repeating: "é", count: $0 % 37))"}"# }
        for line in lines.prefix(3) { writer.write(line: line) }
        var ready = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&ready, 1, 0) == 0, "nothing is written before the flush")
        for line in lines.dropFirst(3) { writer.write(line: line) }
        writer.holdLines(false)
        close(fds[1])
        var writes: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = recv(fds[0], &buffer, buffer.count, 0)
            if n <= 0 { break }
            writes.append(Array(buffer[0..<n]))
        }
        close(fds[0])
        #expect(writes.count > 1)
        #expect(writes.allSatisfy { $0.count <= Int(PIPE_BUF) && $0.last == 0x0A })
        #expect(String(decoding: writes.joined(), as: UTF8.self) == lines.map { $0 + "\n" }.joined())
    }
}

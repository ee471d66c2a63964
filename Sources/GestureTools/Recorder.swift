import Glibc
import GestureEngine
import GestureActions
import GestureCore
import GestureInput

/// What `gesturemap record` was asked to do.
public struct RecordOptions: Sendable {
    /// A device node; nil means the touch device found (or `from`).
    public var device: String?
    /// Convert a recording instead of reading a device.
    public var from: String?
    /// The output file; nil means stdout.
    public var output: String?
    public var format = RecordFormat.ndjson
    public var inputFormat: InputFormat?
    public var resolution: (x: Double, y: Double)?
    public var grab = false

    public init() {}
}

/// `gesturemap record`: a device, or any supported file, to NDJSON (or evemu or
/// raw bytes) in the device's own units with a header, so real sessions become
/// test fixtures.
public final class Recorder {
    let options: RecordOptions
    let console: Console
    private var writer: RecordWriter?
    private var pending: [TouchFrame] = []
    private var out: [UInt8] = []
    /// Stdout, or the `-o` file; its first failed write ends the recording.
    private var sink = LineWriter(fd: 1)
    public private(set) var framesWritten = 0

    public init(options: RecordOptions, console: Console) {
        self.options = options
        self.console = console
    }

    public func run() -> ExitCode {
        if let path = options.output {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                console.say("gesturemap record: cannot write \(path): \(String(cString: strerror(errno)))")
                return .cannotWrite
            }
            sink = LineWriter(fd: fd, name: path)
        }
        let status = options.from.map(convert) ?? recordDevice()
        if options.output != nil { sink.close() }
        if let failure = sink.failure {
            return ExitCode.forOutput(failure, command: "gesturemap record", console: console)
        }
        return status
    }

    private var outputFailed: Bool { sink.failure != nil }

    private func convert(_ path: String) -> ExitCode {
        let file: InputFile
        do {
            file = path == "-" ? InputFile(standardInput: ()) : try InputFile(path: path)
        } catch {
            console.say("gesturemap record: \(error.message)")
            return .noInput
        }
        var decoder = AutoDecoder(source: file.name, format: options.inputFormat, resolution: options.resolution)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while let n = file.read(into: buffer), n > 0 {
            decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { pending.append($0) }
            drain(&decoder)
            if outputFailed { return .ok }
        }
        decoder.finish { pending.append($0) }
        drain(&decoder)
        finish(decoder)
        if decoder.readsMouse {
            console.say("gesturemap record: \(file.name) is a mouse's recording, and record converts touch events only; run, test, explain and draw read it as it is")
        }
        return .ok
    }

    private func recordDevice() -> ExitCode {
        let path: String
        if let given = options.device {
            path = given
        } else {
            let scan = DeviceScanner.scan()
            guard let first = scan.touch.first else {
                console.say("gesturemap record: " + DeviceScanner.explainNone(scan))
                return .unavailable
            }
            path = first
            if scan.touch.count > 1 { console.say("gesturemap record: recording \(path); name another device to record it instead") }
        }
        let device: InputDevice
        do {
            device = try InputDevice(path: path)
            try? device.useMonotonicClock()
            if options.grab { try device.grab() }
        } catch {
            console.say("gesturemap record: " + error.message)
            return .unavailable
        }
        var decoder = RawEventDecoder(source: path, resolution: options.resolution)
        // The header written gets the best size known when the kernel gives none.
        decoder.describe(device.description, sizeHints: DeviceSizeProbe().hints(fd: device.fd, description: device.description))
        Interrupt.install()
        console.say("gesturemap record: recording \(path) (\(device.description.name.map(TerminalText.escaped) ?? "unnamed")); Ctrl-C to stop")
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 14, alignment: 16)
        defer { buffer.deallocate() }
        while !Interrupt.requested && !outputFailed {
            // The output too, for nothing: a reader that leaves between touches ends the recording.
            var p = [pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0),
                     pollfd(fd: sink.hangupDescriptor ?? -1, events: 0, revents: 0)]
            let ready = poll(&p, 2, 200)
            if ready <= 0 { continue }
            if p[1].revents != 0 {
                sink.checkReader()
                continue
            }
            if p[0].revents == 0 { continue }
            let n = read(device.fd, buffer.baseAddress, buffer.count)
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                console.say("gesturemap record: \(path): \(String(cString: strerror(errno)))")
                break
            }
            if n == 0 { break }
            decoder.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { pending.append($0) }
            drain(&decoder)
        }
        if outputFailed { return .ok }
        decoder.finish { pending.append($0) }
        drain(&decoder)
        finish(decoder)
        console.say("gesturemap record: \(framesWritten) frames")
        return .ok
    }

    private func drain<D: TouchDecoder>(_ decoder: inout D) {
        for d in decoder.diagnostics { console.say(d.description) }
        decoder.diagnostics.removeAll()
        guard !pending.isEmpty else { return }
        if writer == nil {
            writer = RecordWriter(format: options.format, deviceName: decoder.deviceName, converter: decoder.converter)
        }
        for frame in pending {
            writer?.write(frame, to: &out)
            framesWritten += 1
        }
        pending.removeAll(keepingCapacity: true)
        flush()
    }

    private func finish(_ decoder: some TouchDecoder) {
        if writer == nil { writer = RecordWriter(format: options.format, deviceName: decoder.deviceName, converter: decoder.converter) }
        writer?.finish(to: &out)
        flush()
    }

    private func flush() {
        sink.write(bytes: out)
        out.removeAll(keepingCapacity: true)
    }
}

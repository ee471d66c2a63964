import GestureCore
import GestureInput

/// Regular files replayed as fast as they can be read: deadlines pass when
/// the input's time passes them. Every file goes through one consumer of
/// chunks, whoever decodes them (`ChunkProducer`).
extension Session {
    func replay(_ sources: [Source]) -> ExitCode {
        for source in sources where !engine.isOver {
            guard let file = source.file else { continue }
            let progress = engine.progressConsole.flatMap { ProgressBar(file: file, console: $0) }
            defer { progress?.finish() }
            let producer = chunks(of: source, from: file)
            defer { producer.finish() }
            if let status = replay(source, from: producer, progress: progress) { return status }
        }
        engine.finishTimers()
        return .ok
    }

    /// A file's chunks: decoded on a second thread while this one handles the
    /// frames before (unless the replay keeps a pace, or no thread can be made),
    /// or on this thread.
    func chunks(of source: Source, from file: InputFile) -> ChunkProducer {
        let decoding = ChunkDecoding(source: source, file: file, verbose: engine.options.verbose)
        if !isPacing, engine.options.decodesAhead, let ahead = DecodeAhead.started(decoding) { return ahead }
        return InlineChunks(decoding)
    }

    /// One file, chunk by chunk, to its end: the status that stops the run
    /// early (a read error, `--strict` at a malformed line, a stop), or nil.
    private func replay(_ source: Source, from producer: ChunkProducer, progress: ProgressBar?) -> ExitCode? {
        var frame = TouchFrame(time: 0)
        var bytesDone = 0
        while true {
            let chunk = producer.next()
            if let status = begin(chunk, of: source) { return status }
            var named = 0
            var moused = 0
            for k in 0..<chunk.frameCount {
                if named < chunk.names.count { named = applyNames(of: chunk, from: named, before: k) }
                if moused < chunk.mouse.count { moused = applyMouse(of: chunk, from: moused, before: k) }
                chunk.load(k, into: &frame)
                self.frame(frame)
            }
            _ = applyNames(of: chunk, from: named, before: chunk.frameCount)
            _ = applyMouse(of: chunk, from: moused, before: chunk.frameCount)
            // The rest of the same read follows in the next chunk.
            guard chunk.endsRead else {
                producer.recycle(chunk)
                continue
            }
            if let status = end(chunk, of: source) { return status }
            if chunk.end { return nil }
            bytesDone += chunk.bytes
            progress?.update(bytesDone: bytesDone, events: chunk.eventCount)
            if engine.isOver { return .ok }
            producer.recycle(chunk)
        }
    }

    /// Before a chunk's frames: a stop asked for or a read error ends the run;
    /// a new read looks at the focus first, as the loop would.
    func begin(_ chunk: DecodedChunk, of source: Source) -> ExitCode? {
        // SIGTERM or SIGINT: the replay ends here, as at its files' end.
        if StopSignals.requested {
            engine.stopAsked()
            return .ok
        }
        if let error = chunk.readError {
            engine.console.note("\(source.name): read error: \(error)")
            return .noInput
        }
        if chunk.startsRead, !isPacing { appFocus.takeWhatArrived() }
        return nil
    }

    /// After a read's frames: at the file's end its device's deadlines fire,
    /// and then its units are said, after them.
    private func end(_ chunk: DecodedChunk, of source: Source) -> ExitCode? {
        if let status = readDone(chunk) { return status }
        if chunk.end {
            engine.finish(device: source.index)
            for line in chunk.announcement { engine.console.say(line) }
        }
        return nil
    }

    /// A read decoded: the lines go out, the units are said once (at the
    /// file's end, by the caller, after its deadlines), the decoder's messages
    /// (`--strict` stops at an error), and stdout's reader is looked at.
    func readDone(_ chunk: DecodedChunk) -> ExitCode? {
        engine.output.flush()
        if !chunk.end { for line in chunk.announcement { engine.console.say(line) } }
        if let status = engine.report(chunk.diagnostics, errorCount: chunk.errorCount) { return status }
        if !chunk.end { engine.checkOutputReader() }
        return nil
    }

    /// A recorded mouse's events up to frame `frame`.
    func applyMouse(of chunk: DecodedChunk, from start: Int, before frame: Int) -> Int {
        var i = start
        while i < chunk.mouse.count, chunk.mouse[i].before == frame, !engine.isOver {
            let (_, device, event) = chunk.mouse[i]
            mouse(event, device: device)
            i += 1
        }
        return i
    }

    func applyNames(of chunk: DecodedChunk, from start: Int, before frame: Int) -> Int {
        var i = start
        while i < chunk.names.count, chunk.names[i].before == frame {
            engine.lanes.make(chunk.names[i].device).deviceName = chunk.names[i].name
            i += 1
        }
        return i
    }
}

import GestureCore
import GestureInput

/// One file of a merged replay: its chunks, and the frame of the current
/// chunk that is next, or a recorded mouse's event that comes before it.
private final class ReplayLane {
    let source: Source
    let producer: ChunkProducer
    var chunk: DecodedChunk?
    var next = 0
    var named = 0
    var moused = 0
    var atEnd = false
    var head = TouchFrame(time: 0)
    var hasHead = false
    /// The head is a recorded mouse's event, not `head`'s frame.
    var mouseHead: (device: Int, event: EvdevEvent)?

    var headTime: Double { mouseHead?.event.time ?? head.time }

    init(source: Source, producer: ChunkProducer) {
        self.source = source
        self.producer = producer
    }
}

extension Session {
    /// Several files, each a device: a merge over their chunks, frames (and a
    /// recorded mouse's events) taken earliest first, as they would have come
    /// live, so that actions leave in time order across devices. A file's next chunk is read, and its news
    /// said, when its frames run out.
    func replayMerged(_ sources: [Source]) -> ExitCode {
        let lanes = sources.compactMap { source in
            source.file.map { ReplayLane(source: source, producer: InlineChunks(ChunkDecoding(
                source: source, file: $0, verbose: engine.options.verbose))) }
        }
        defer { for lane in lanes { lane.producer.finish() } }

        /// Takes chunks until the lane has a frame or a mouse's event waiting, or its file ended.
        func refill(_ lane: ReplayLane) -> ExitCode? {
            while !lane.hasHead, !engine.isOver {
                if let chunk = lane.chunk {
                    if lane.named < chunk.names.count { lane.named = applyNames(of: chunk, from: lane.named, before: lane.next) }
                    // A mouse's events due before the next frame come first, each a head of its own.
                    if lane.moused < chunk.mouse.count, chunk.mouse[lane.moused].before <= lane.next {
                        let (_, device, event) = chunk.mouse[lane.moused]
                        lane.moused += 1
                        lane.mouseHead = (device, event)
                        lane.hasHead = true
                        return nil
                    }
                    if lane.next < chunk.frameCount {
                        chunk.load(lane.next, into: &lane.head)
                        lane.next += 1
                        lane.mouseHead = nil
                        lane.hasHead = true
                        return nil
                    }
                    _ = applyNames(of: chunk, from: lane.named, before: chunk.frameCount)
                }
                guard !lane.atEnd else { return nil }
                let chunk = lane.producer.next()
                lane.chunk = chunk
                lane.next = 0
                lane.named = 0
                lane.moused = 0
                if let status = begin(chunk, of: lane.source) { return status }
                if let status = readDone(chunk) { return status }
                lane.atEnd = chunk.end
            }
            return nil
        }

        for lane in lanes {
            if let status = refill(lane) { return status }
        }
        while !engine.isOver {
            // The earliest frame or mouse's event waiting; on a tie, the file named first.
            var earliest: ReplayLane?
            for lane in lanes where lane.hasHead {
                if let best = earliest, best.headTime <= lane.headTime { continue }
                earliest = lane
            }
            guard let lane = earliest else { break }
            lane.hasHead = false
            if let (device, event) = lane.mouseHead {
                lane.mouseHead = nil
                mouse(event, device: device)
            } else {
                frame(lane.head)
            }
            if let status = refill(lane) { return status }
        }
        guard !engine.isOver else { return .ok }
        // Every file ended: what was due by the last input fires across devices
        // in time order, then each device's end, the earliest next deadline first.
        if let last = engine.latestInputTime { engine.advanceAll(to: last) }
        let ending = lanes.map(\.source.index).sorted {
            (engine.deadline(of: $0) ?? .infinity, $0) < (engine.deadline(of: $1) ?? .infinity, $1)
        }
        for device in ending where !engine.isOver { engine.finish(device: device) }
        for lane in lanes { for line in lane.chunk?.announcement ?? [] where lane.atEnd { engine.console.say(line) } }
        engine.finishTimers()
        return .ok
    }
}

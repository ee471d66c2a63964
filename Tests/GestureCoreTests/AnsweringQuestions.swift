@testable import GestureCore

extension GestureArena {
    /// What the engine does after each call: every question the arena hands
    /// out is put to `driver`, and the answer handed back.
    mutating func answerQuestions(with driver: any ExternalRecognizerDriver, into out: inout [Delivery]) {
        while let question {
            var reply = ExternalReply()
            driver.call(question.request, tracker: question.tracker, into: &reply)
            answer(reply, into: &out)
        }
    }
}

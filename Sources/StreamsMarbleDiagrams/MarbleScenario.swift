import Dispatch
import Streams
import StreamsTesting

/// The test scheduler every diagram runs on: one frame of the picture is one virtual second.
typealias DiagramScheduler = TestSchedulerOf<DispatchQueue>

/// The picture every diagram draws into.
typealias DiagramPicture = MarblePicture<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>

/// One diagram: a small scripted run of one operator, drawn from what really passes, and the
/// reference pages it appears on.
struct MarbleScenario {
    /// The files' name: `marble-<name>.svg` and `marble-<name>~dark.svg`.
    let name: String
    /// The operator's code, written in the picture's box.
    let caption: String
    /// The documentation symbols whose pages show the diagram, as DocC links relative to the
    /// module: the `Publisher` method first, then the `Publishers` type.
    let pages: [String]
    /// What to notice in the picture, written under it.
    let note: String
    /// How many seconds to run; `nil` runs until nothing is scheduled.
    var seconds: Int?
    /// Sets the run up: passes the inputs through the picture and subscribes to the output.
    let setUp: (DiagramPicture, DiagramScheduler) -> Void

    /// Runs the scenario on a fresh test scheduler and returns the picture it drew.
    func draw() -> DiagramPicture {
        let scheduler = DispatchQueue.test
        let picture = DiagramPicture(of: caption, scheduler: scheduler)
        setUp(picture, scheduler)
        if let seconds {
            scheduler.advance(by: .seconds(seconds))
        } else {
            scheduler.run()
        }
        return picture
    }
}

/// A publisher with a name, which is its description: an inner publisher that a diagram's outer
/// line draws by name.
struct NamedPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible {
    let description: String
    let publisher: AnyPublisher<Output, Failure>

    init<P: Publisher>(_ name: String, _ publisher: P) where P.Output == Output, P.Failure == Failure {
        description = name
        self.publisher = publisher.eraseToAnyPublisher()
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        publisher.subscribe(subscriber)
    }
}

/// The error the diagrams' publishers fail with.
struct DiagramError: Error, CustomStringConvertible {
    var description: String { "an error" }
}

extension MarbleScenario {
    /// The diagram of an operator over one input, drawn as `upstream`: a hot publisher that plays
    /// `marbles`, each value read as an `Input`.
    static func overOneInput<Input: LosslessStringConvertible, Output: Publisher>(
        name: String, caption: String, pages: [String], note: String, upstream marbles: String,
        of _: Input.Type, label: @escaping (Output.Output) -> String = { String(describing: $0) },
        _ apply: @escaping (AnyPublisher<Input, Never>, DiagramScheduler) -> Output
    ) -> MarbleScenario {
        MarbleScenario(name: name, caption: caption, pages: pages, note: note) { picture, scheduler in
            let upstream = picture.input(
                "upstream", scheduler.createHotPublisher(marbles: marbles, outputType: Input.self))
            picture.output(apply(upstream, scheduler), label: label)
        }
    }
}

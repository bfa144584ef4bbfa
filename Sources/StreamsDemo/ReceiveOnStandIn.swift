import Streams

// A stand-in for Combine's `receive(on:options:)`, which Streams does not have yet.
//
// DELETE THIS FILE once Streams has `receive(on:options:)`: main.swift calls `receive(on:)` exactly as
// it calls the real operator, so deleting the file is the whole switch. While both exist, the call is
// ambiguous and the demo does not compile, so the stand-in cannot linger unnoticed.

extension Publisher {
    /// Delivers values and the completion on `scheduler`; the subscription, demand and cancellation
    /// pass straight through, as with Combine's operator.
    func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> ReceiveOnStandIn<Self, S> {
        ReceiveOnStandIn(upstream: self, scheduler: scheduler, options: options)
    }
}

/// The publisher the stand-in `receive(on:options:)` returns.
struct ReceiveOnStandIn<Upstream: Publisher, Context: Scheduler>: Publisher {
    typealias Output = Upstream.Output
    typealias Failure = Upstream.Failure

    let upstream: Upstream
    let scheduler: Context
    let options: Context.SchedulerOptions?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        upstream.receive(subscriber: Inner(downstream: subscriber, scheduler: scheduler, options: options))
    }

    /// Hands each value and the completion to the scheduler. Demand the downstream returns from a
    /// value is requested from upstream once the scheduler has delivered it.
    final class Inner<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Output, Downstream.Failure == Failure {
        let downstream: Downstream
        let scheduler: Context
        let options: Context.SchedulerOptions?
        /// Set before any value arrives; read by the scheduled deliveries, which run after it is set.
        var subscription: (any Subscription)?

        init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.downstream = downstream
            self.scheduler = scheduler
            self.options = options
        }

        func receive(subscription: any Subscription) {
            self.subscription = subscription
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Output) -> Subscribers.Demand {
            scheduler.schedule(options: options) {
                let demand = self.downstream.receive(input)
                if demand > .none { self.subscription?.request(demand) }
            }
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            scheduler.schedule(options: options) {
                self.downstream.receive(completion: completion)
            }
        }
    }
}

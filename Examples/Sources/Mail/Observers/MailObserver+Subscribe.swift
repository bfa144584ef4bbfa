import Streams

extension MailObserver {
    /// Subscribes the observer to its part of the store's state, its way.
    ///
    /// - Parameters:
    ///   - store: The store to observe.
    ///   - model: The object that `Deduplicated` wraps, for that way.
    /// - Returns: What keeps the observer subscribed, to hold for as long as it observes.
    func subscribe(to store: Store<MailState>, through model: MailModel) -> [AnyObject] {
        switch id.part {
        case .unreadCount(let folder): subscribe(to: \.[unreadCountIn: folder.id], of: store, through: model)
        case .messageList(let folder): subscribe(to: \.[messagesIn: folder.id], of: store, through: model)
        case .totalUnreadCount: subscribe(to: \.totalUnreadCount, of: store, through: model)
        case .theme: subscribe(to: \.settings.theme, of: store, through: model)
        case .signature: subscribe(to: \.settings.signature, of: store, through: model)
        }
    }

    /// Subscribes the observer to the part of the state at `part`, its way.
    private func subscribe<Value: Equatable>(
        to part: KeyPath<MailState, Value>, of store: Store<MailState>, through model: MailModel
    ) -> [AnyObject] {
        switch id.way {
        case .storeSlice:
            return [store.slice(part).sink { _ in self.wake() }]
        case .mapRemoveDuplicates:
            return [store.subject.map(part).removeDuplicates().sink { _ in self.wake() }]
        case .deduplicated:
            let wrapper = model.deduplicated { $0.state[keyPath: part] }
            return [wrapper, wrapper.objectWillChange.sink { self.wake() }]
        case .observedPublisher:
            let viewModel = PartViewModel(following: store.slice(part), initial: store.state[keyPath: part])
            return [viewModel, viewModel.objectWillChange.sink { self.wake() }]
        case .wholeState:
            return [store.subject.sink { _ in self.wake() }]
        }
    }
}

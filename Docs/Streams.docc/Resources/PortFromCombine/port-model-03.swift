import Dispatch
import Streams

/// The state of a sign-up form.
final class SignUpModel: ObservableObject {
    @Published var email = ""
    @Published var password = ""
    /// Whether the form may be submitted: a plausible email and a long enough password.
    @Published private(set) var canSubmit = false
    /// What the form tells the user about the latest submission.
    @Published private(set) var status = ""

    /// The user tapped the Sign Up button.
    let submitTapped = PassthroughSubject<Void, Never>()
    /// The user pressed Return in the password field.
    let returnPressed = PassthroughSubject<Void, Never>()
    private var cancellables = Set<AnyCancellable>()

    init(service: SignUpService, scheduler: DispatchQueue = .main) {
        $email.combineLatest($password)
            .map { email, password in email.contains("@") && password.count >= 8 }
            .removeDuplicates()
            .receive(on: scheduler)
            .assign(to: &$canSubmit)

        let results = submitTapped.merge(with: returnPressed)
            .filter { [weak self] in self?.canSubmit ?? false }
            .compactMap { [weak self] in self.map { ($0.email, $0.password) } }
            .map { email, password in
                service.signUp(email: email, password: password)
                    .map { "Welcome, \($0.email)!" }
                    .catch { error in Just("Sign-up failed: \(error)") }
            }
            .switchToLatest()
            .share()

        results
            .receive(on: scheduler)
            .assign(to: &$status)
        results
            .sink { print("log:", $0) }
            .store(in: &cancellables)
    }
}

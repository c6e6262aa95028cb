import FieldGuide

extension ChangeReport {
    /// A registration's fields by name (as its JSON keys), each with how to tell two values
    /// apart: the change report names a changed registration's fields through this list.
    ///
    /// `differingProperties` answers the same through `Mirror`, whose reflection per field per
    /// record took a third of a full-size diff's instructions on a day's 1,580 changed
    /// registrations. A test holds this list to the type's properties (a field added to
    /// `RegistrationInfo` and not here fails it) and to the JSON comparison.
    package static let registrationFields: [(name: String, differs: @Sendable (RegistrationInfo, RegistrationInfo) -> Bool)] = [
        field("nNumber", \.nNumber), field("serialNumber", \.serialNumber), field("modelCode", \.modelCode),
        field("engineCode", \.engineCode), field("model", \.model), field("engine", \.engine),
        field("yearManufactured", \.yearManufactured), field("registrantType", \.registrantType),
        field("ownerWithheld", \.ownerWithheld), field("name", \.name), field("street", \.street), field("street2", \.street2),
        field("city", \.city), field("state", \.state), field("zip", \.zip), field("region", \.region), field("county", \.county),
        field("country", \.country), field("lastActionDate", \.lastActionDate), field("certificateIssueDate", \.certificateIssueDate),
        field("certification", \.certification), field("airworthinessClass", \.airworthinessClass),
        field("approvedOperations", \.approvedOperations), field("aircraftType", \.aircraftType), field("engineType", \.engineType),
        field("status", \.status), field("modeSHex", \.modeSHex), field("fractionalOwner", \.fractionalOwner),
        field("airworthinessDate", \.airworthinessDate), field("otherNames", \.otherNames), field("expirationDate", \.expirationDate),
        field("uniqueID", \.uniqueID), field("kitManufacturer", \.kitManufacturer), field("kitModel", \.kitModel),
    ]

    /// The names of the fields in which two registrations differ, sorted.
    package static func differingRegistrationFields(_ a: RegistrationInfo, _ b: RegistrationInfo) -> [String] {
        registrationFields.filter { $0.differs(a, b) }.map(\.name).sorted()
    }

    private static func field<V: Equatable & Sendable>(_ name: String, _ path: KeyPath<RegistrationInfo, V> & Sendable)
        -> (name: String, differs: @Sendable (RegistrationInfo, RegistrationInfo) -> Bool) {
        (name, { $0[keyPath: path] != $1[keyPath: path] })
    }
}

package api

// FeatureValueWarning is the warning an approval view puts first above a
// set_organization_feature whose value vigil's own tools refuse
// (CheckFeatureValue), or "" when they accept it. Such a value can still be
// filed raw (`vigil request`), and the service takes it: the quorum's vote is
// the last place it can be caught. The message is sanitized.
func FeatureValueWarning(name, value string) string {
	err := CheckFeatureValue(name, value)
	if err == nil {
		return ""
	}
	w := "WARNING: vigil's own form and `vigil feature set` refuse this value (" + Sanitize(err.Error()) + "), though the service takes it as filed"
	if name == FeatureWebauthnOrigins {
		w += "; once set, a passkey signing at an origin it does not list is refused, and a value with no usable origin refuses every passkey"
	}
	return w + "; reject it unless you are sure"
}

package profile

import (
	"strings"
	"testing"
)

// auth_proxy_config_id is sent as the X-Auth-Proxy-Config-Id header: a value
// no header can carry is refused at load, naming file, line and key, as
// organization_id's is, not later as a retried "connection failed".
func TestAuthProxyConfigIDWithControlOrSpaceIsRefused(t *testing.T) {
	for _, id := range []string{`x\r\nX-Evil: 1`, `x\u0000`, `two words`, `x\t`} {
		text := "[profiles.a]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nauth_proxy_url = \"https://ap.example.com\"\nauth_proxy_config_id = \"" + id + "\"\n"
		_, path, err := loadText(t, text)
		if err == nil || !strings.Contains(err.Error(), path+":5: profiles.a.auth_proxy_config_id") || !strings.Contains(err.Error(), "spaces or control characters") {
			t.Errorf("auth_proxy_config_id = \"%s\": %v; want it refused at line 5, naming the key", id, err)
		}
	}
	if _, _, err := loadText(t, "[profiles.a]\nbase_url = \"https://api.example.com\"\norganization_id = \"o\"\nauth_proxy_url = \"https://ap.example.com\"\nauth_proxy_config_id = \"0c5a1f2e-7b1d-4e8f-9a3b-2d6c8e1f4a7b\"\n"); err != nil {
		t.Errorf("a plain auth_proxy_config_id: %v", err)
	}
}

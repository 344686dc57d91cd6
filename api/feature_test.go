package api

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckFeatureValue(t *testing.T) {
	ok := []struct{ name, value string }{
		{FeatureWebhook, "https://hooks.example.com/vigil"},
		{FeatureWebhook, "http://localhost:8080/hook"},
		{FeatureWebhook, ""},
		{FeatureWebauthnOrigins, "https://app.example.com"},
		{FeatureWebauthnOrigins, "https://app.example.com, http://localhost:3000"},
		{FeatureEmailAuth, "enabled"},
		{FeatureSolanaRentPrefundEnabled, "disabled"},
		{FeatureSMSAuth, "true"},
		{FeatureOtpEmailAuth, ""},
	}
	for _, c := range ok {
		if err := CheckFeatureValue(c.name, c.value); err != nil {
			t.Errorf("%s=%q: %v", c.name, c.value, err)
		}
	}
	bad := []struct{ name, value, want string }{
		{"FEATURE_NAME_NOPE", "enabled", "name"},
		{FeatureWebhook, "hooks.example.com", "absolute http(s) URL"},
		{FeatureWebhook, "ftp://x.example.com", "absolute http(s) URL"},
		{FeatureWebauthnOrigins, "", "at least one origin"},
		{FeatureWebauthnOrigins, "https://a.example.com,", "origin 2: empty"},
		{FeatureWebauthnOrigins, "https://a.example.com/login", "more than scheme://host"},
		{FeatureWebauthnOrigins, "app.example.com", "not an http(s) origin"},
		{FeatureEmailAuth, "yes", "is a toggle"},
		{FeatureWebhook, "https://x.example.com/" + strings.Repeat("a", MaxFeatureValueLength), "value"},
	}
	for _, c := range bad {
		err := CheckFeatureValue(c.name, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s=%q: got %v, want an invalid-argument error mentioning %q", c.name, c.value, err, c.want)
		}
	}
}

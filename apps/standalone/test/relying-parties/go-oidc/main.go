// The Go relying party: go-oidc (github.com/coreos/go-oidc, v2) and
// golang.org/x/oauth2 from Debian's packages, as an integrator wires them.
// `rp confidential`: discovery, client_credentials, the code with PKCE as a
// server application (x/oauth2's default auth style), the ID token verified
// by go-oidc against the JWKS, at_hash, UserInfo, introspection, refresh with
// rotation and reuse detection, revocation. `rp public`: the same code flow
// as a public client (an entry point id, no secret). Two processes because
// x/oauth2 remembers per token URL which auth style worked.
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/url"
	"os"
	"runtime"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

var (
	ctx = context.Background()
	s   = readSettings()
	out = &report{Library: "go-oidc+x/oauth2", Version: runtime.Version(), Steps: map[string]facts{}}
)

type discovered struct {
	Algs          []string `json:"id_token_signing_alg_values_supported"`
	Introspection string   `json:"introspection_endpoint"`
	Revocation    string   `json:"revocation_endpoint"`
}

func random() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// codeFlow: AuthCodeURL with nonce and PKCE S256, the hosted login, Exchange with the verifier, the ID token verified.
func codeFlow(provider *oidc.Provider, config oauth2.Config, verifier *oidc.IDTokenVerifier) (*oauth2.Token, *oidc.IDToken, error) {
	codeVerifier, state, nonce := random(), random(), random()
	sum := sha256.Sum256([]byte(codeVerifier))
	authURL := config.AuthCodeURL(state, oidc.Nonce(nonce),
		oauth2.SetAuthURLParam("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:])),
		oauth2.SetAuthURLParam("code_challenge_method", "S256"))
	back, err := hostedLogin(authURL, s.email, s.password)
	if err != nil {
		return nil, nil, err
	}
	if back.Get("state") != state {
		return nil, nil, fmt.Errorf("state mismatch")
	}
	token, err := config.Exchange(ctx, back.Get("code"), oauth2.SetAuthURLParam("code_verifier", codeVerifier))
	if err != nil {
		return nil, nil, err
	}
	rawID, _ := token.Extra("id_token").(string)
	id, err := verifier.Verify(ctx, rawID)
	if err != nil {
		return token, nil, err
	}
	if id.Nonce != nonce {
		return token, nil, fmt.Errorf("nonce mismatch")
	}
	return token, id, nil
}

func main() {
	mode := "confidential"
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	var meta discovered
	provider, err := oidc.NewProvider(ctx, s.base)
	if err == nil {
		err = provider.Claims(&meta)
	}
	out.step("discovery", func() (facts, error) { return facts{"algs": meta.Algs}, err })
	if err != nil {
		out.print()
		return
	}
	if mode == "public" {
		public(provider, meta)
	} else {
		confidential(provider, meta)
	}
	out.print()
}

// flow runs the code flow and records its steps under prefix: the first tokens and the refreshed ones (nil when a step failed).
func flow(prefix string, provider *oidc.Provider, config oauth2.Config, meta discovered) (*oauth2.Token, *oauth2.Token) {
	verifier := provider.Verifier(&oidc.Config{ClientID: config.ClientID, SupportedSigningAlgs: meta.Algs})
	var token *oauth2.Token
	var id *oidc.IDToken
	out.step(prefix+"code_pkce", func() (facts, error) {
		var err error
		token, id, err = codeFlow(provider, config, verifier)
		if token == nil {
			return nil, err
		}
		return facts{"token_type": token.TokenType, "refresh_token": token.RefreshToken != ""}, nil
	})
	out.step(prefix+"id_token", func() (facts, error) {
		if id == nil {
			return nil, fmt.Errorf("no verified ID token")
		}
		return facts{"sub": id.Subject, "aud": id.Audience, "issuer": id.Issuer}, nil
	})
	if token == nil || id == nil {
		return nil, nil
	}
	out.step(prefix+"at_hash", func() (facts, error) { return facts{}, id.VerifyAccessToken(token.AccessToken) })
	// go-oidc's verifier without SupportedSigningAlgs accepts RS256 only.
	out.step(prefix+"id_token_default_verifier", func() (facts, error) {
		_, err := provider.Verifier(&oidc.Config{ClientID: config.ClientID}).Verify(ctx, token.Extra("id_token").(string))
		return facts{}, err
	})
	out.step(prefix+"userinfo", func() (facts, error) {
		info, err := provider.UserInfo(ctx, oauth2.StaticTokenSource(token))
		if err != nil {
			return nil, err
		}
		return facts{"sub": info.Subject, "email": info.Email, "email_verified": info.EmailVerified}, nil
	})
	var refreshed *oauth2.Token
	out.step(prefix+"refresh", func() (facts, error) {
		var err error
		// A token with only a refresh token is expired: the TokenSource refreshes it.
		refreshed, err = config.TokenSource(ctx, &oauth2.Token{RefreshToken: token.RefreshToken}).Token()
		if err != nil {
			return nil, err
		}
		_, hasID := refreshed.Extra("id_token").(string)
		return facts{"rotated": refreshed.RefreshToken != token.RefreshToken, "id_token": hasID}, nil
	})
	return token, refreshed
}

func confidential(provider *oidc.Provider, meta discovered) {
	// The operator's secret reads differently raw and form-decoded; x/oauth2 form-encodes Basic credentials.
	for _, who := range []struct{ prefix, id, secret string }{{"", s.clientID, s.clientSecret}, {"operator_", s.operatorID, s.operatorSecret}} {
		clientCredentials(who.prefix, who.id, who.secret, provider.Endpoint().TokenURL)
	}
	config := oauth2.Config{ClientID: s.clientID, ClientSecret: s.clientSecret, Endpoint: provider.Endpoint(), RedirectURL: s.redirectURI,
		Scopes: []string{oidc.ScopeOpenID, "profile", "email", oidc.ScopeOfflineAccess}}

	first, token := flow("confidential_", provider, config, meta)
	if token == nil {
		return
	}
	out.step("confidential_introspection", func() (facts, error) {
		status, _, body, err := postForm(meta.Introspection, url.Values{"token": {token.AccessToken}}, s.clientID, s.clientSecret)
		return facts{"status": status, "body": body}, err
	})
	out.step("confidential_revocation", func() (facts, error) {
		status, contentType, body, err := postForm(meta.Revocation, url.Values{"token": {token.AccessToken}, "token_type_hint": {"access_token"}}, s.clientID, s.clientSecret)
		return facts{"status": status, "content_type": contentType, "body": body}, err
	})
	// The spent refresh token presented again is refused and revokes its family (contract section 4).
	out.step("confidential_refresh_reuse", func() (facts, error) {
		_, reuse := config.TokenSource(ctx, &oauth2.Token{RefreshToken: first.RefreshToken}).Token()
		_, family := config.TokenSource(ctx, &oauth2.Token{RefreshToken: token.RefreshToken}).Token()
		return facts{"reuse": oauthError(reuse), "family_after_reuse": oauthError(family)}, nil
	})
}

// clientCredentials: the grant with Basic credentials and with the secret in the body.
func clientCredentials(prefix, id, secret, tokenURL string) {
	for name, style := range map[string]oauth2.AuthStyle{"client_credentials_basic": oauth2.AuthStyleInHeader, "client_credentials_post": oauth2.AuthStyleInParams} {
		cc := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: tokenURL, AuthStyle: style}
		out.step(prefix+name, func() (facts, error) {
			t, err := cc.Token(ctx)
			if err != nil {
				return nil, err
			}
			return facts{"token_type": t.TokenType, "scope": t.Extra("scope")}, nil
		})
	}
}

func public(provider *oidc.Provider, meta discovered) {
	scopes := []string{oidc.ScopeOpenID, "profile", "email", oidc.ScopeOfflineAccess}
	// x/oauth2's default (AuthStyleAutoDetect): Basic "client_id:" first, the client_id in the body when that is refused.
	auto := oauth2.Config{ClientID: s.publicClientID, Endpoint: provider.Endpoint(), RedirectURL: s.redirectURI, Scopes: scopes}
	out.step("public_code_pkce_autodetect", func() (facts, error) {
		_, _, err := codeFlow(provider, auto, provider.Verifier(&oidc.Config{ClientID: s.publicClientID, SupportedSigningAlgs: meta.Algs}))
		return facts{}, err
	})
	endpoint := provider.Endpoint()
	endpoint.AuthStyle = oauth2.AuthStyleInParams
	// A native app (a CLI): a loopback redirect on the port it listens on.
	native := oauth2.Config{ClientID: s.publicClientID, Endpoint: endpoint, RedirectURL: s.nativeRedirectURI, Scopes: scopes}
	out.step("native_code_pkce", func() (facts, error) {
		_, id, err := codeFlow(provider, native, provider.Verifier(&oidc.Config{ClientID: s.publicClientID, SupportedSigningAlgs: meta.Algs}))
		if err != nil {
			return nil, err
		}
		return facts{"aud": id.Audience}, nil
	})
	config := oauth2.Config{ClientID: s.publicClientID, Endpoint: endpoint, RedirectURL: s.redirectURI, Scopes: scopes}
	_, token := flow("public_", provider, config, meta)
	if token == nil {
		return
	}
	out.step("public_revocation", func() (facts, error) {
		form := url.Values{"token": {token.RefreshToken}, "token_type_hint": {"refresh_token"}, "client_id": {s.publicClientID}}
		status, contentType, body, err := postForm(meta.Revocation, form, "", "")
		if err != nil {
			return nil, err
		}
		_, after := config.TokenSource(ctx, &oauth2.Token{RefreshToken: token.RefreshToken}).Token()
		return facts{"status": status, "content_type": contentType, "body": body, "after": oauthError(after)}, nil
	})
}

package main

// What the relying-party program shares with the Python ones: settings from
// the environment, the user's part of the hosted login (GET the form, post it
// back with its cookie), and a report of named steps printed as one JSON
// object ({"ok": true, ...facts} or {"ok": false, "error": ...}).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

type settings struct {
	base, clientID, clientSecret, publicClientID, email, password, redirectURI, nativeRedirectURI, alg, operatorID, operatorSecret string
}

func readSettings() settings {
	get := func(k string) string {
		v := os.Getenv(k)
		if v == "" {
			fmt.Fprintf(os.Stderr, "missing environment: %s\n", k)
			os.Exit(2)
		}
		return v
	}
	return settings{get("GATEHOUSE_URL"), get("CLIENT_ID"), get("CLIENT_SECRET"), get("PUBLIC_CLIENT_ID"), get("USER_EMAIL"), get("USER_PASSWORD"), get("REDIRECT_URI"), get("NATIVE_REDIRECT_URI"), get("SIGNING_ALG"), get("OPERATOR_ID"), get("OPERATOR_SECRET")}
}

type facts map[string]interface{}

type report struct {
	Library string           `json:"library"`
	Version string           `json:"version"`
	Steps   map[string]facts `json:"steps"`
}

// step runs fn and records its facts or its error under name; it returns whether fn succeeded.
func (r *report) step(name string, fn func() (facts, error)) bool {
	got, err := fn()
	if err != nil {
		r.Steps[name] = facts{"ok": false, "error": err.Error()}
		return false
	}
	if got == nil {
		got = facts{}
	}
	got["ok"] = true
	r.Steps[name] = got
	return true
}

func (r *report) print() {
	_ = json.NewEncoder(os.Stdout).Encode(r)
}

var formToken = regexp.MustCompile(`name="form_token" value="([^"]+)"`)

// hostedLogin plays the browser: the login page, the form posted with its cookie, the 303 to the redirect URI.
func hostedLogin(authURL, email, password string) (url.Values, error) {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page, err := browser.Get(authURL)
	if err != nil {
		return nil, err
	}
	html, _ := io.ReadAll(page.Body)
	page.Body.Close()
	m := formToken.FindSubmatch(html)
	if page.StatusCode != http.StatusOK || m == nil {
		return nil, fmt.Errorf("authorize answered %d: %.300s", page.StatusCode, html)
	}
	form := url.Values{"form_token": {string(m[1])}, "email": {email}, "password": {password}}
	post, err := browser.PostForm(strings.Split(authURL, "?")[0], form)
	if err != nil {
		return nil, err
	}
	body, _ := io.ReadAll(post.Body)
	post.Body.Close()
	if post.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("login answered %d: %.300s", post.StatusCode, body)
	}
	back, err := url.Parse(post.Header.Get("Location"))
	if err != nil {
		return nil, err
	}
	return back.Query(), nil
}

// oauthError is the RFC 6749 error code of a token endpoint refusal (x/oauth2 0.3 keeps only the body), "accepted" for none.
func oauthError(err error) string {
	if err == nil {
		return "accepted"
	}
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return err.Error()
	}
	var body struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(re.Body, &body) != nil {
		return string(re.Body)
	}
	return body.Error
}

// postForm is what an integrator writes where x/oauth2 has no call (introspection, revocation): net/http with Basic credentials.
func postForm(endpoint string, form url.Values, id, secret string) (int, string, map[string]interface{}, error) {
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if secret != "" {
		req.SetBasicAuth(id, secret)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer res.Body.Close()
	var body map[string]interface{}
	err = json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, res.Header.Get("Content-Type"), body, err
}

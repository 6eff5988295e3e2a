// Passkeys on the hosted pages (contract section 12), after @simplewebauthn/browser's
// bundle (the global SimpleWebAuthnBrowser). Loaded as a file under the pages' CSP
// (script-src 'self'); without JavaScript the pages work as before: the passkey
// buttons stay hidden and no offer is made.
/* global window, document, location */
(function () {
  "use strict";
  var W = window.SimpleWebAuthnBrowser;
  // Read by the server (Caller.passkey_capable): offer a passkey only to a browser that can make one.
  var COOKIE = "gh_passkey";

  function remember(capable) {
    var secure = location.protocol === "https:" ? "; Secure" : "";
    var value = capable ? "1; Max-Age=2592000" : "; Max-Age=0";
    document.cookie = COOKIE + "=" + value + "; Path=/; SameSite=Lax" + secure;
  }

  function submitWith(form, intent, credential) {
    var named = form.elements;
    if (intent) named.namedItem("intent").value = intent;
    named.namedItem("passkey_credential").value = JSON.stringify(credential);
    // form.submit(): the credential is the proof; the inputs' own validation does not apply.
    form.submit();
  }

  function showFailure(err) {
    // The user closing the browser's dialog, or a ceremony replaced by another, is not a failure to tell.
    if (err && (err.name === "AbortError" || err.code === "ERROR_CEREMONY_ABORTED")) return;
    var box = document.querySelector("[data-passkey-error]");
    if (box) box.hidden = false;
  }

  if (!W || !W.browserSupportsWebAuthn()) {
    remember(false);
    return;
  }
  W.platformAuthenticatorIsAvailable().then(remember, function () {
    remember(false);
  });

  // The login page: "Sign in with a passkey", and the passkeys in the identifier input's autofill.
  var signIn = document.querySelector("form[data-passkey-request]");
  if (signIn) {
    // The options sit in an unnamed input's value, as the form's other per-render values do: the page's
    // markup is then the same for every render but for values (no attribute that tells two answers apart).
    var request = JSON.parse(signIn.querySelector("[data-passkey-options]").value);
    var start = function (autofill) {
      return W.startAuthentication({ optionsJSON: request, useBrowserAutofill: autofill }).then(function (c) {
        submitWith(signIn, "passkey", c);
      });
    };
    var button = signIn.querySelector("[data-passkey-start]");
    if (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        start(false).catch(showFailure);
      });
    }
    W.browserSupportsWebAuthnAutofill().then(function (ok) {
      // Conditional mediation: the request waits for the user to pick a passkey in the autofill.
      if (ok) start(true).catch(function () {});
    });
  }

  // The offer after a sign-in or registration: "Create a passkey".
  var offer = document.querySelector("form[data-passkey-creation]");
  if (offer) {
    var creation = JSON.parse(offer.getAttribute("data-passkey-creation"));
    var create = offer.querySelector("[data-passkey-start]");
    create.hidden = false;
    create.addEventListener("click", function () {
      W.startRegistration({ optionsJSON: creation })
        .then(function (c) {
          submitWith(offer, "", c);
        })
        .catch(showFailure);
    });
  }
})();

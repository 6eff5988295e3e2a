-- Contract section 17: per application, the hosted pages' bot check, its own
-- hourly budget of text messages (NULL = none of its own) and the calling
-- codes its users' phone numbers must start with (empty = any).
ALTER TABLE registry.clients
  ADD COLUMN captcha text NOT NULL DEFAULT 'off' CHECK (captcha IN ('off', 'altcha')),
  ADD COLUMN sms_per_hour integer CHECK (sms_per_hour >= 0),
  ADD COLUMN phone_prefixes text[] NOT NULL DEFAULT '{}';

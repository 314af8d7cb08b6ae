/**
 * The hand-written fragment lists of Baton's own redaction corpus (see
 * scripts/generate-redaction-corpus.ts): how each kind of secret is talked about, and the
 * ordinary talk around it. Each list is cut in two by the generator, one half for dev and one
 * for holdout.
 */

// ---- where secrets are said -----------------------------------------------------------------

/** How a secret class is talked about: customer turns, question-and-reply pairs, tool fields, agent echoes. */
export interface ClassFragments {
  /** Customer turns; `{v}` is the value, `[lang]` at the start says which language spells digits. */
  say: readonly string[];
  reply: ReadonlyArray<readonly [string, string]>;
  args: readonly string[];
  output: readonly string[];
  echo: readonly string[];
}

export const FRAGMENTS: Readonly<Record<string, ClassFragments>> = {
  card: {
    say: [
      'my card number is {v}',
      'Please charge the card {v} for it',
      'card: {v}',
      'it is the visa {v}',
      'use my debit card {v} please',
      '[es] el número de tarjeta es {v}',
      '[fr] numéro de carte {v}',
      '[de] meine Kartennummer ist {v}',
      'cc # {v}',
      'Long number is {v}',
    ],
    reply: [
      ['What is the long number on your card?', '{v}'],
      ['Can you give me the card number?', 'sure, {v}'],
      ['Which card should I use? Please read me the card number.', 'ok here: {v}'],
      ['What is the card number?', "it's {v}"],
    ],
    args: ['card_number', 'cardNumber', 'pan', 'cc_number', 'new_card_number', 'payment_card_number'],
    output: ['card_number', 'pan', 'card', 'primary_account_number', 'cc_number', 'stored_card_number'],
    echo: ["I've noted card {v}.", 'Thanks, charging {v} now.', 'Card {v} is on file.', 'Got it: {v}.'],
  },
  cvv: {
    say: [
      'the cvv is {v}',
      '[en] security code: {v}',
      '[en] the three digits on the back are {v}',
      'CVC {v}',
      '[en] back of card says {v}',
      '[es] el código de seguridad es {v}',
      '[fr] le cryptogramme est {v}',
      '[de] die Kartenprüfnummer lautet {v}',
      '[it] il codice di sicurezza è {v}',
      '[pt] o código de segurança é {v}',
      '[nl] de beveiligingscode is {v}',
      'cvv2={v}',
      '[fr] code de sécurité : {v}',
      '{v} is the cvv',
    ],
    reply: [
      ['And the CVV on the back?', '{v}'],
      ['What is the security code?', "it's {v}"],
      ['Please read me the three digits on the back of the card (the CVV).', '{v}'],
      ['Could you confirm the CVC?', 'ok {v}'],
    ],
    args: ['cvv', 'cvc', 'security_code', 'card_cvv', 'cvv2', 'cardVerificationValue'],
    output: ['cvv', 'cvc', 'security_code', 'last_cvv', 'cvv_entered', 'card_cvc'],
    echo: ['Thanks, CVV {v} noted.', "I've entered the CVC {v}.", 'Security code {v} accepted.', 'Using cvv {v}.'],
  },
  otp: {
    say: [
      'my verification code is {v}',
      'the code you texted me is {v}',
      'OTP: {v}',
      '2FA code {v}',
      'code from the sms: {v}',
      '{v} is my code',
      '[es] mi código es {v}',
      '[fr] le code de vérification est {v}',
      '[de] der Bestätigungscode lautet {v}',
      '[it] il codice di verifica è {v}',
      '[pt] o código de verificação é {v}',
      '[nl] mijn verificatiecode is {v}',
      'one-time passcode {v}',
      'Verification: {v}',
      'login code = {v}',
      '{v} is your verification code',
    ],
    reply: [
      ['I have sent a code to your phone. What is it?', '{v}'],
      ['Please read me the one-time code.', "sure it's {v}"],
      ['What is the verification code we just texted you?', '{v} thanks'],
      ['Can you tell me the 6-digit code?', 'ok {v}'],
    ],
    args: ['code', 'otp', 'verification_code', 'one_time_code', 'otp_code', 'passcode'],
    output: ['code', 'otp', 'one_time_code', 'verification_code', 'otp_sent', 'sms_code'],
    echo: ['Thanks, entering {v} now.', 'Code {v} received, checking.', 'Verifying {v}.', 'The code {v} worked.'],
  },
  password: {
    say: [
      'my password is {v}',
      'password: {v}',
      'pw: {v}',
      'pwd {v}',
      'psswd: {v}',
      'the passcode is {v}',
      'pass: {v}',
      'my passw0rd is {v}',
      'my password, it is {v}',
      'I changed my password to {v}',
      'login pw {v}',
      'mot de passe : {v}',
      'mein Passwort ist {v}',
      'mi contraseña es {v}',
      'a senha é {v}',
      'my password it is {v}',
    ],
    reply: [
      ['What is your current password?', '{v}'],
      ['Please confirm the password you set.', "it's {v}"],
      ['What password did you choose?', 'sure, {v}'],
      ['Which password are you using?', '{v}'],
    ],
    args: ['password', 'new_password', 'pwd', 'current_password', 'passwd', 'pw'],
    output: ['password', 'initial_password', 'temp_password', 'new_password', 'pwd', 'account_password'],
    echo: [
      'Thanks, password {v} received.',
      "I've reset it; your temporary password is {v}.",
      'Your new password is {v}.',
      'pw {v} saved.',
    ],
  },
  iban: {
    say: [
      'please refund to IBAN {v}',
      'my IBAN: {v}',
      'send to {v} please',
      'the account is {v}',
      'IBAN {v} (name: M. Dubois)',
      'payout to {v}',
    ],
    reply: [
      ['Which bank account should the refund go to?', '{v}'],
      ['What is your IBAN?', "it's {v}"],
    ],
    args: ['iban', 'payout_iban', 'account_iban', 'bank_iban', 'iban_number', 'destinationIban'],
    output: ['iban', 'payout_iban', 'account', 'bank_account_iban', 'iban_on_file', 'refund_iban'],
    echo: ['Refund going to {v}.', 'I have {v} on file.', 'Payout account {v} saved.', 'Sending it to {v}.'],
  },
  ssn: {
    say: ['SSN: {v}', 'my social security number is {v}', 'the social is {v}', 'ssn {v}', 'social security no. {v}', 'SS# {v}'],
    reply: [
      ['What is your social security number?', '{v}'],
      ['Please confirm your SSN.', "it's {v}"],
    ],
    args: ['ssn', 'social_security_number', 'customer_ssn', 'ssn_number', 'socialSecurityNumber', 'tax_ssn'],
    output: ['ssn', 'social_security_number', 'customer_ssn', 'ssn_on_file', 'ssn_full', 'primary_ssn'],
    echo: ["I've matched {v} to your account.", 'SSN {v} verified.', 'Thanks, {v} is on file.', 'Checking {v} now.'],
  },
  nino: {
    say: [
      'my NI number is {v}',
      'National Insurance number: {v}',
      'NINO {v}',
      'NI no. {v}',
      '{v} is my national insurance number',
      'national insurance {v}',
    ],
    reply: [
      ['What is your National Insurance number?', 'NI number {v}'],
      ['Please confirm your NI number.', 'my NI number is {v}'],
    ],
    args: ['nino', 'national_insurance_number', 'ni_number', 'nationalInsuranceNumber', 'customer_nino', 'nino_value'],
    output: ['nino', 'national_insurance_number', 'ni_number', 'nino_on_file', 'customer_nino', 'national_insurance'],
    echo: ['NI number {v} noted.', "I've matched {v} to your record.", 'National Insurance {v} verified.', 'Thanks, NINO {v}.'],
  },
  key: {
    say: [
      'here is my api key: {v}',
      'I regenerated the key, new one is {v}',
      'the secret is {v}',
      'our API key {v}',
      'token: {v}',
      'use the access key {v}',
      'the client secret we use: {v}',
      'webhook secret = {v}',
    ],
    reply: [
      ['Which API key does the integration use?', 'the key is {v}'],
      ['Could you paste the secret?', 'secret: {v}'],
    ],
    args: ['api_key', 'apiKey', 'secret', 'access_token', 'client_secret', 'token'],
    output: ['api_key', 'secret_key', 'access_token', 'client_secret', 'webhook_secret', 'token'],
    echo: ['Please use the new secret {v}.', 'API key {v} saved.', 'The key {v} is now active.', 'Token {v} rotated in.'],
  },
};

// ---- what must survive ----------------------------------------------------------------------

/** Customer and agent turns that carry an ordinary value; `{k}` is the value. */
export const KEEP_SAY: Readonly<Record<string, readonly string[]>> = {
  order: ['It is about order {k}.', 'order {k} please', 'The code for order {k} is wrong.', 'My order number is {k}.'],
  amount: ['I was charged {k} twice.', 'The refund should be {k}.', 'it cost {k}', 'total {k}'],
  date: ['It happened on {k}.', 'charged on {k}', 'since {k}', 'the renewal date is {k}'],
  tracking: ['Tracking number {k} shows nothing.', 'tracking {k}', 'the parcel {k} is late', 'Tracking code {k}'],
  phone: ['Call me on {k} if needed.', 'my number is {k}', 'You can reach me at {k}.', 'phone: {k}'],
  email: ['Email me at {k}.', 'my email is {k}', 'reply to {k}', 'contact {k}'],
  zip: ['zip code {k}', 'my postcode is {k}', 'ZIP: {k}', 'it ships to zip {k}'],
  customer: ['my customer id is {k}', 'account {k}', 'customer {k}', 'id {k}'],
  reservation: ['reservation {k}', 'booking code {k}', 'confirmation code {k}', 'my booking reference is {k}'],
  imei: ['the phone IMEI is {k}', 'IMEI: {k}', 'device {k} is locked', 'imei {k}'],
};
// Look-alikes of secrets that are ordinary talk: they must stay as they are.
export const KEEP_ONLY: readonly string[] = [
  'My password is not working, can you send a reset link?',
  'I forgot my password.',
  'The verification code expired, please send another.',
  'error code 4001 when I pay',
  'sort code 12-34-56 is on the letter',
  'promo code SAVE20 did not apply',
  'my boarding pass says seat 14C, gate B22',
  'Can you pass this to a human?',
  'the key is under the mat',
  'the token expired yesterday',
  'area code 415',
  'flight HAT018 on 2026-05-15',
];

export const GREETINGS = [
  'Hi',
  'Hello',
  'hello, I need help with a payment',
  'Hi, the refund needs to go somewhere',
  'hey',
  'Good morning',
];
export const TOOLS = [
  'update_payment_method',
  'verify_otp',
  'update_account',
  'update_payout_account',
  'verify_identity',
  'add_card',
  'set_api_key',
];

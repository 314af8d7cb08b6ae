// Insults aimed at the person (or bot) being addressed, not frustration with the situation:
// "you useless idiot" is abuse, "this is useless" is not.
const INSULT =
  '(idiot|moron|imbecile|cretin|loser|scum|trash|garbage|piece of (shit|crap|garbage)|bitch|bastard|asshole|dumbass|jackass|retard|clown)';
const PATTERNS: readonly RegExp[] = [
  new RegExp(
    `\\byou(?:'re| are)?\\s+(?:(?:a|an|such an?|fucking|stupid|useless|pathetic|worthless|complete|total|absolute)\\s+){0,3}${INSULT}s?\\b`,
    'i',
  ),
  new RegExp(`\\b(?:stupid|useless|pathetic|worthless|fucking)\\s+${INSULT}\\b`, 'i'),
  /\b(f+u+c*k+|screw|damn)\s+(you|u|off)\b/i,
  /\b(shut up|go to hell|drop dead)\b/i,
  /\bi(?:'ll| will| am going to|'m going to)\s+(?:hurt|kill|find|beat)\s+you\b/i,
  /\bi know where you live\b/i,
];

/**
 * The abusive phrase in a customer's message, or null. Abuse is aimed at whoever answers; a
 * customer who is angry at a situation ("this is useless!") is frustrated, not abusive.
 */
export function detectAbuse(text: string): string | null {
  const normalised = text.replace(/[\u2018\u2019]/g, "'");
  for (const pattern of PATTERNS) {
    const match = normalised.match(pattern);
    if (match) return match[0];
  }
  return null;
}

/** What the customer is told, without calling the model, the first time they are abusive. */
export const ABUSE_RESPONSE =
  "I want to help you sort this out, and I can do that best if we keep things respectful. Could you tell me what's going wrong?";

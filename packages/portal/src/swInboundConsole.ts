/** Kiswahili of the console's Inbound numbers page (numbers, keywords, unrouted messages), spread into sw.ts. */
export const swInboundConsole: Record<string, string> = {
  "Inbound numbers": "Namba za kupokea",
  "Numbers and keywords whose messages reach an account: its customers' replies and opt-out words.":
    "Namba na maneno makuu ambayo jumbe zake zinafika kwa akaunti: majibu ya wateja wake na maneno ya kujiondoa.",
  "No number is assigned yet.": "Bado hakuna namba iliyokabidhiwa.",
  "Assigned numbers": "Namba zilizokabidhiwa",
  "Aliases": "Maneno mbadala",
  "the whole number": "namba yote",
  "Change {number}": "Badilisha {number}",
  "Remove {number}": "Ondoa {number}",
  "Remove {number} from {account}? Its messages will be unrouted.":
    "Ondoa {number} kutoka kwa {account}? Jumbe zake hazitapelekwa kwa akaunti yoyote.",
  "{number} removed.": "{number} imeondolewa.",
  "{number} assigned.": "{number} imekabidhiwa.",
  "{number} changed.": "{number} imebadilishwa.",
  "Assign a number": "Kabidhi namba",
  "Number or short code": "Namba au namba fupi",
  "+255… for a long number, 3 to 8 digits for a short code.":
    "+255… kwa namba ndefu, tarakimu 3 hadi 8 kwa namba fupi.",
  "Keyword (optional)": "Neno kuu (si lazima)",
  "Empty: the whole number is the account's. A keyword shares a short code.":
    "Tupu: namba yote ni ya akaunti. Neno kuu hugawana namba fupi.",
  "Other words for the keyword, separated by commas.": "Maneno mengine ya neno kuu, yakitenganishwa kwa koma.",
  "Assign": "Kabidhi",
  "Assign {number}": "Kabidhi {number}",
  "Choose an account.": "Chagua akaunti.",
  "This number is already taken: by an account that has it alone, or with this keyword or one of its aliases. Remove that assignment first, or choose another keyword.":
    "Namba hii tayari imechukuliwa: na akaunti inayoimiliki peke yake, au kwa neno kuu hili au mojawapo ya maneno yake mbadala. Ondoa ukabidhi huo kwanza, au chagua neno kuu jingine.",
  "Your role may not change inbound numbers.": "Jukumu lako haliruhusu kubadilisha namba za kupokea.",
  "That account or assignment no longer exists. Reload the page.":
    "Akaunti hiyo au ukabidhi huo haupo tena. Pakia ukurasa upya.",
  "Enter the number in international format (+ and 8 to 15 digits) or a short code of 3 to 8 digits.":
    "Andika namba kwa muundo wa kimataifa (+ na tarakimu 8 hadi 15) au namba fupi ya tarakimu 3 hadi 8.",
  "A keyword is one word of letters and digits (at most 20), and not an opt-out word such as STOP.":
    "Neno kuu ni neno moja la herufi na tarakimu (zisizozidi 20), na si neno la kujiondoa kama STOP.",
  "Aliases are words like the keyword, and need a keyword.":
    "Maneno mbadala ni maneno kama neno kuu, na yanahitaji neno kuu.",
  "The change was not saved. Try again.": "Mabadiliko hayakuhifadhiwa. Jaribu tena.",
  "Unrouted messages": "Jumbe zisizo na akaunti",
  "Unrouted messages ({n})": "Jumbe zisizo na akaunti ({n})",
  "Messages sent to a number no account has. They are kept: assign the number to route what comes next.":
    "Jumbe zilizotumwa kwa namba ambayo hakuna akaunti inayoimiliki. Zimehifadhiwa: kabidhi namba ili jumbe zijazo zipelekwe.",
  "No unrouted messages.": "Hakuna jumbe zisizo na akaunti.",
  "From (handset)": "Kutoka (simu)",
  "To (number)": "Kwa (namba)",
  "Test event": "Tukio la majaribio"
}

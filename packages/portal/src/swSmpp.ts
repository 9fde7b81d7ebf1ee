/** Kiswahili of the portal's SMPP page (spread at the end of `sw`, sw.ts). */
export const swSmpp: Readonly<Record<string, string>> = {
  "SMPP": "SMPP",
  "This server does not offer SMPP. Ask your provider.": "Seva hii haitoi SMPP. Muulize mtoa huduma wako.",
  "How to connect": "Jinsi ya kuunganisha",
  "Host": "Seva (host)",
  "Port": "Port",
  "TLS port": "Port ya TLS",
  "Bind types": "Aina za bind",
  "SMPP versions": "Matoleo ya SMPP",
  "Bind with your system ID and password. Every message gets a delivery receipt (deliver_sm) on a receiver or transceiver bind. Send enquire_link every 30 to 60 seconds.":
    "Fanya bind kwa system ID na nenosiri lako. Kila ujumbe unapata risiti ya kufika (deliver_sm) kwenye bind ya receiver au transceiver. Tuma enquire_link kila sekunde 30 hadi 60.",
  "What each command_status means": "Maana ya kila command_status",
  "New SMPP credentials": "Vitambulisho vipya vya SMPP",
  "System ID": "System ID",
  "1 to 15 letters, digits, '.', '_' or '-'; unique on the platform.":
    "Herufi 1 hadi 15, tarakimu, '.', '_' au '-'; ya kipekee kwenye jukwaa.",
  "Throughput and the number of binds are set by your provider (50 parts per second, 2 binds to start).":
    "Kasi na idadi ya bind huwekwa na mtoa huduma wako (sehemu 50 kwa sekunde, bind 2 mwanzoni).",
  "Create SMPP credentials": "Unda vitambulisho vya SMPP",
  "Copy the password of {systemId} now: it is shown only once and cannot be read again.":
    "Nakili nenosiri la {systemId} sasa: linaonyeshwa mara moja tu na haliwezi kusomwa tena.",
  "SMPP password of {systemId}": "Nenosiri la SMPP la {systemId}",
  "Copy password": "Nakili nenosiri",
  "Rotate the password of {systemId}": "Badilisha nenosiri la {systemId}",
  "Give {systemId} a new password? New binds need it; binds up stay up.":
    "Mpe {systemId} nenosiri jipya? Bind mpya zitalihitaji; bind zilizopo zinaendelea.",
  "Rotate password": "Badilisha nenosiri",
  "Disable {systemId}": "Zima {systemId}",
  "Disable {systemId}? Its binds are closed and new binds refused.":
    "Zima {systemId}? Bind zake zinafungwa na bind mpya zinakataliwa.",
  "Enable {systemId}": "Washa {systemId}",
  "Enable": "Washa",
  "Delete {systemId}": "Futa {systemId}",
  "Delete {systemId}? Its binds are closed and receipts not yet delivered are dropped.":
    "Futa {systemId}? Bind zake zinafungwa na risiti ambazo hazijafikishwa zinaachwa.",
  "Delete": "Futa",
  "Connect your own systems over SMPP 3.3 or 3.4: the same rules, prices and receipts as the API.":
    "Unganisha mifumo yako kupitia SMPP 3.3 au 3.4: kanuni, bei na risiti ni zile zile za API.",
  "Only owners of the account create and change SMPP credentials.":
    "Wamiliki wa akaunti pekee ndio huunda na kubadilisha vitambulisho vya SMPP.",
  "SMPP credentials": "Vitambulisho vya SMPP",
  "Throughput": "Kasi",
  "{rate}/s, burst {burst}": "{rate}/s, mlipuko {burst}",
  "Max binds": "Bind za juu",
  "Live binds": "Bind zilizo hai",
  "No SMPP credentials yet.": "Bado hakuna vitambulisho vya SMPP.",
  "Bind type": "Aina ya bind",
  "Address": "Anwani",
  "Since": "Tangu",
  "In flight": "Zinazoshughulikiwa",
  "Submits per second (last minute)": "Ujumbe kwa sekunde (dakika iliyopita)",
  "Unbinding…": "Inakata bind…",
  "Unbind {systemId} from {address}": "Kata bind ya {systemId} kutoka {address}",
  "Unbind {systemId} from {address}? The connection is closed; your system may bind again.":
    "Kata bind ya {systemId} kutoka {address}? Muunganisho unafungwa; mfumo wako unaweza kufanya bind tena.",
  "Unbind": "Kata bind",
  "Nothing is bound now.": "Hakuna bind kwa sasa.",
  "Refresh": "Onyesha upya",
  "SMPP status codes": "Misimbo ya hali ya SMPP",
  "A refused submit_sm is answered with one of these command_status values; nothing is sent or charged.":
    "submit_sm iliyokataliwa hujibiwa kwa mojawapo ya thamani hizi za command_status; hakuna kinachotumwa wala kutozwa.",
  "Also: 0x58 throughput exceeded (slow down), 0x14 window full, 0x0D bind refused.":
    "Pia: 0x58 kasi imezidi (punguza kasi), 0x14 dirisha limejaa, 0x0D bind imekataliwa.",
  "The sender ID is not approved for this account.": "Sender ID haijaidhinishwa kwa akaunti hii.",
  "The recipient is not a valid number.": "Mpokeaji si namba halali.",
  "The route to this country is not verified for the account.": "Njia ya kwenda nchi hii haijathibitishwa kwa akaunti.",
  "The recipient opted out.": "Mpokeaji amejiondoa.",
  "The text was refused by the spam policy.": "Maandishi yamekataliwa na sera ya barua taka.",
  "No carrier serves this number.": "Hakuna mtoa huduma wa mtandao anayehudumia namba hii.",
  "No credit left: top up.": "Salio limekwisha: ongeza salio.",
  "Temporary: try again later.": "Kwa muda: jaribu tena baadaye.",
  "The same text too often: slow down.": "Maandishi yale yale mara nyingi mno: punguza kasi.",
  "The account is suspended.": "Akaunti imesimamishwa.",
  "API error": "Hitilafu ya API",
  // editing credentials (the portal's owner; "Edit {systemId}" and the saved line: the console's too)
  "Edit": "Hariri",
  "Edit {systemId}": "Hariri {systemId}",
  "The settings of {systemId} are saved.": "Mipangilio ya {systemId} imehifadhiwa.",
  "Settings of {systemId}": "Mipangilio ya {systemId}",
  "Nothing was changed: correct the field below.": "Hakuna kilichobadilishwa: sahihisha sehemu iliyo hapa chini.",
  "The internet addresses your system connects from, separated by commas: one address like 196.41.2.10, or a range like 196.41.2.0/24. Empty: any address.":
    "Anwani za intaneti ambazo mfumo wako huunganisha kutoka, zikitenganishwa kwa koma: anwani moja kama 196.41.2.10, au kundi kama 196.41.2.0/24. Tupu: anwani yoyote.",
  "From now on, a connection from another address is refused; connections already open stay open.":
    "Kuanzia sasa, muunganisho kutoka anwani nyingine utakataliwa; miunganisho iliyo wazi tayari inabaki wazi.",
  "Set by your provider": "Huwekwa na mtoa huduma wako",
  "{rate} parts per second, bursts up to {burst}": "Sehemu {rate} kwa sekunde, mlipuko hadi {burst}",
  "Connections at the same time": "Miunganisho kwa wakati mmoja",
  "To change these, ask your provider.": "Kubadilisha haya, muulize mtoa huduma wako."
}

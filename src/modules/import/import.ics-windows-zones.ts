/**
 * Windows time zones as Outlook and Exchange name them in a TZID, to IANA zones: the zone's id
 * (`W. Europe Standard Time`) and the name Windows shows for it (`(UTC+01:00) Amsterdam, Berlin,
 * Bern, Rome, Stockholm, Vienna`), which Outlook also writes.
 *
 * Ids to IANA zones: CLDR's windowsZones.xml (unicode-org/cldr, common/supplemental), the zone of
 * territory "001" of each Windows zone, with the IANA names of today where CLDR keeps an old one
 * (Asia/Kolkata for Asia/Calcutta, Europe/Kyiv for Europe/Kiev…). Display names: Windows' own
 * (the registry's Time Zones keys, Windows 10 and 11), without their "(UTC±hh:mm)" part, which
 * changes with the zone's rules. The npm package windows-iana carries the CLDR part only (and an
 * older CLDR: America/Chihuahua for Mountain Standard Time (Mexico)), not the display names.
 */

/** [Windows id, IANA zone, display name without its offset]. */
const WINDOWS_ZONES: readonly (readonly [string, string, string])[] = [
  ['Dateline Standard Time', 'Etc/GMT+12', 'International Date Line West'],
  ['UTC-11', 'Etc/GMT+11', 'Coordinated Universal Time-11'],
  ['Aleutian Standard Time', 'America/Adak', 'Aleutian Islands'],
  ['Hawaiian Standard Time', 'Pacific/Honolulu', 'Hawaii'],
  ['Marquesas Standard Time', 'Pacific/Marquesas', 'Marquesas Islands'],
  ['Alaskan Standard Time', 'America/Anchorage', 'Alaska'],
  ['UTC-09', 'Etc/GMT+9', 'Coordinated Universal Time-09'],
  ['Pacific Standard Time (Mexico)', 'America/Tijuana', 'Baja California'],
  ['UTC-08', 'Etc/GMT+8', 'Coordinated Universal Time-08'],
  ['Pacific Standard Time', 'America/Los_Angeles', 'Pacific Time (US & Canada)'],
  ['US Mountain Standard Time', 'America/Phoenix', 'Arizona'],
  ['Mountain Standard Time (Mexico)', 'America/Mazatlan', 'La Paz, Mazatlan'],
  ['Mountain Standard Time', 'America/Denver', 'Mountain Time (US & Canada)'],
  ['Yukon Standard Time', 'America/Whitehorse', 'Yukon'],
  ['Central America Standard Time', 'America/Guatemala', 'Central America'],
  ['Central Standard Time', 'America/Chicago', 'Central Time (US & Canada)'],
  ['Easter Island Standard Time', 'Pacific/Easter', 'Easter Island'],
  ['Central Standard Time (Mexico)', 'America/Mexico_City', 'Guadalajara, Mexico City, Monterrey'],
  ['Canada Central Standard Time', 'America/Regina', 'Saskatchewan'],
  ['SA Pacific Standard Time', 'America/Bogota', 'Bogota, Lima, Quito, Rio Branco'],
  ['Eastern Standard Time (Mexico)', 'America/Cancun', 'Chetumal'],
  ['Eastern Standard Time', 'America/New_York', 'Eastern Time (US & Canada)'],
  ['Haiti Standard Time', 'America/Port-au-Prince', 'Haiti'],
  ['Cuba Standard Time', 'America/Havana', 'Havana'],
  ['US Eastern Standard Time', 'America/Indiana/Indianapolis', 'Indiana (East)'],
  ['Turks And Caicos Standard Time', 'America/Grand_Turk', 'Turks and Caicos'],
  ['Paraguay Standard Time', 'America/Asuncion', 'Asuncion'],
  ['Atlantic Standard Time', 'America/Halifax', 'Atlantic Time (Canada)'],
  ['Venezuela Standard Time', 'America/Caracas', 'Caracas'],
  ['Central Brazilian Standard Time', 'America/Cuiaba', 'Cuiaba'],
  ['SA Western Standard Time', 'America/La_Paz', 'Georgetown, La Paz, Manaus, San Juan'],
  ['Pacific SA Standard Time', 'America/Santiago', 'Santiago'],
  ['Newfoundland Standard Time', 'America/St_Johns', 'Newfoundland'],
  ['Tocantins Standard Time', 'America/Araguaina', 'Araguaina'],
  ['E. South America Standard Time', 'America/Sao_Paulo', 'Brasilia'],
  ['SA Eastern Standard Time', 'America/Cayenne', 'Cayenne, Fortaleza'],
  ['Argentina Standard Time', 'America/Argentina/Buenos_Aires', 'City of Buenos Aires'],
  ['Greenland Standard Time', 'America/Nuuk', 'Greenland'],
  ['Montevideo Standard Time', 'America/Montevideo', 'Montevideo'],
  ['Magallanes Standard Time', 'America/Punta_Arenas', 'Punta Arenas'],
  ['Saint Pierre Standard Time', 'America/Miquelon', 'Saint Pierre and Miquelon'],
  ['Bahia Standard Time', 'America/Bahia', 'Salvador'],
  ['UTC-02', 'Etc/GMT+2', 'Coordinated Universal Time-02'],
  ['Azores Standard Time', 'Atlantic/Azores', 'Azores'],
  ['Cape Verde Standard Time', 'Atlantic/Cape_Verde', 'Cabo Verde Is.'],
  ['UTC', 'UTC', 'Coordinated Universal Time'],
  ['GMT Standard Time', 'Europe/London', 'Dublin, Edinburgh, Lisbon, London'],
  ['Greenwich Standard Time', 'Atlantic/Reykjavik', 'Monrovia, Reykjavik'],
  ['Sao Tome Standard Time', 'Africa/Sao_Tome', 'Sao Tome'],
  ['Morocco Standard Time', 'Africa/Casablanca', 'Casablanca'],
  ['W. Europe Standard Time', 'Europe/Berlin', 'Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna'],
  ['Central Europe Standard Time', 'Europe/Budapest', 'Belgrade, Bratislava, Budapest, Ljubljana, Prague'],
  ['Romance Standard Time', 'Europe/Paris', 'Brussels, Copenhagen, Madrid, Paris'],
  ['Central European Standard Time', 'Europe/Warsaw', 'Sarajevo, Skopje, Warsaw, Zagreb'],
  ['W. Central Africa Standard Time', 'Africa/Lagos', 'West Central Africa'],
  ['Jordan Standard Time', 'Asia/Amman', 'Amman'],
  ['GTB Standard Time', 'Europe/Bucharest', 'Athens, Bucharest'],
  ['Middle East Standard Time', 'Asia/Beirut', 'Beirut'],
  ['Egypt Standard Time', 'Africa/Cairo', 'Cairo'],
  ['E. Europe Standard Time', 'Europe/Chisinau', 'Chisinau'],
  ['Syria Standard Time', 'Asia/Damascus', 'Damascus'],
  ['West Bank Standard Time', 'Asia/Hebron', 'Gaza, Hebron'],
  ['South Africa Standard Time', 'Africa/Johannesburg', 'Harare, Pretoria'],
  ['FLE Standard Time', 'Europe/Kyiv', 'Helsinki, Kyiv, Riga, Sofia, Tallinn, Vilnius'],
  ['Israel Standard Time', 'Asia/Jerusalem', 'Jerusalem'],
  ['South Sudan Standard Time', 'Africa/Juba', 'Juba'],
  ['Kaliningrad Standard Time', 'Europe/Kaliningrad', 'Kaliningrad'],
  ['Sudan Standard Time', 'Africa/Khartoum', 'Khartoum'],
  ['Libya Standard Time', 'Africa/Tripoli', 'Tripoli'],
  ['Namibia Standard Time', 'Africa/Windhoek', 'Windhoek'],
  ['Arabic Standard Time', 'Asia/Baghdad', 'Baghdad'],
  ['Turkey Standard Time', 'Europe/Istanbul', 'Istanbul'],
  ['Arab Standard Time', 'Asia/Riyadh', 'Kuwait, Riyadh'],
  ['Belarus Standard Time', 'Europe/Minsk', 'Minsk'],
  ['Russian Standard Time', 'Europe/Moscow', 'Moscow, St. Petersburg'],
  ['E. Africa Standard Time', 'Africa/Nairobi', 'Nairobi'],
  ['Volgograd Standard Time', 'Europe/Volgograd', 'Volgograd'],
  ['Iran Standard Time', 'Asia/Tehran', 'Tehran'],
  ['Arabian Standard Time', 'Asia/Dubai', 'Abu Dhabi, Muscat'],
  ['Astrakhan Standard Time', 'Europe/Astrakhan', 'Astrakhan, Ulyanovsk'],
  ['Azerbaijan Standard Time', 'Asia/Baku', 'Baku'],
  ['Russia Time Zone 3', 'Europe/Samara', 'Izhevsk, Samara'],
  ['Mauritius Standard Time', 'Indian/Mauritius', 'Port Louis'],
  ['Saratov Standard Time', 'Europe/Saratov', 'Saratov'],
  ['Georgian Standard Time', 'Asia/Tbilisi', 'Tbilisi'],
  ['Caucasus Standard Time', 'Asia/Yerevan', 'Yerevan'],
  ['Afghanistan Standard Time', 'Asia/Kabul', 'Kabul'],
  ['West Asia Standard Time', 'Asia/Tashkent', 'Ashgabat, Tashkent'],
  ['Qyzylorda Standard Time', 'Asia/Qyzylorda', 'Qyzylorda'],
  ['Ekaterinburg Standard Time', 'Asia/Yekaterinburg', 'Ekaterinburg'],
  ['Pakistan Standard Time', 'Asia/Karachi', 'Islamabad, Karachi'],
  ['India Standard Time', 'Asia/Kolkata', 'Chennai, Kolkata, Mumbai, New Delhi'],
  ['Sri Lanka Standard Time', 'Asia/Colombo', 'Sri Jayawardenepura'],
  ['Nepal Standard Time', 'Asia/Kathmandu', 'Kathmandu'],
  ['Central Asia Standard Time', 'Asia/Almaty', 'Astana'],
  ['Bangladesh Standard Time', 'Asia/Dhaka', 'Dhaka'],
  ['Omsk Standard Time', 'Asia/Omsk', 'Omsk'],
  ['Myanmar Standard Time', 'Asia/Yangon', 'Yangon (Rangoon)'],
  ['SE Asia Standard Time', 'Asia/Bangkok', 'Bangkok, Hanoi, Jakarta'],
  ['Altai Standard Time', 'Asia/Barnaul', 'Barnaul, Gorno-Altaysk'],
  ['W. Mongolia Standard Time', 'Asia/Hovd', 'Hovd'],
  ['North Asia Standard Time', 'Asia/Krasnoyarsk', 'Krasnoyarsk'],
  ['N. Central Asia Standard Time', 'Asia/Novosibirsk', 'Novosibirsk'],
  ['Tomsk Standard Time', 'Asia/Tomsk', 'Tomsk'],
  ['China Standard Time', 'Asia/Shanghai', 'Beijing, Chongqing, Hong Kong, Urumqi'],
  ['North Asia East Standard Time', 'Asia/Irkutsk', 'Irkutsk'],
  ['Singapore Standard Time', 'Asia/Singapore', 'Kuala Lumpur, Singapore'],
  ['W. Australia Standard Time', 'Australia/Perth', 'Perth'],
  ['Taipei Standard Time', 'Asia/Taipei', 'Taipei'],
  ['Ulaanbaatar Standard Time', 'Asia/Ulaanbaatar', 'Ulaanbaatar'],
  ['Aus Central W. Standard Time', 'Australia/Eucla', 'Eucla'],
  ['Transbaikal Standard Time', 'Asia/Chita', 'Chita'],
  ['Tokyo Standard Time', 'Asia/Tokyo', 'Osaka, Sapporo, Tokyo'],
  ['North Korea Standard Time', 'Asia/Pyongyang', 'Pyongyang'],
  ['Korea Standard Time', 'Asia/Seoul', 'Seoul'],
  ['Yakutsk Standard Time', 'Asia/Yakutsk', 'Yakutsk'],
  ['Cen. Australia Standard Time', 'Australia/Adelaide', 'Adelaide'],
  ['AUS Central Standard Time', 'Australia/Darwin', 'Darwin'],
  ['E. Australia Standard Time', 'Australia/Brisbane', 'Brisbane'],
  ['AUS Eastern Standard Time', 'Australia/Sydney', 'Canberra, Melbourne, Sydney'],
  ['West Pacific Standard Time', 'Pacific/Port_Moresby', 'Guam, Port Moresby'],
  ['Tasmania Standard Time', 'Australia/Hobart', 'Hobart'],
  ['Vladivostok Standard Time', 'Asia/Vladivostok', 'Vladivostok'],
  ['Lord Howe Standard Time', 'Australia/Lord_Howe', 'Lord Howe Island'],
  ['Bougainville Standard Time', 'Pacific/Bougainville', 'Bougainville Island'],
  ['Russia Time Zone 10', 'Asia/Srednekolymsk', 'Chokurdakh'],
  ['Magadan Standard Time', 'Asia/Magadan', 'Magadan'],
  ['Norfolk Standard Time', 'Pacific/Norfolk', 'Norfolk Island'],
  ['Sakhalin Standard Time', 'Asia/Sakhalin', 'Sakhalin'],
  ['Central Pacific Standard Time', 'Pacific/Guadalcanal', 'Solomon Is., New Caledonia'],
  ['Russia Time Zone 11', 'Asia/Kamchatka', 'Anadyr, Petropavlovsk-Kamchatsky'],
  ['New Zealand Standard Time', 'Pacific/Auckland', 'Auckland, Wellington'],
  ['UTC+12', 'Etc/GMT-12', 'Coordinated Universal Time+12'],
  ['Fiji Standard Time', 'Pacific/Fiji', 'Fiji'],
  ['Chatham Islands Standard Time', 'Pacific/Chatham', 'Chatham Islands'],
  ['UTC+13', 'Etc/GMT-13', 'Coordinated Universal Time+13'],
  ['Tonga Standard Time', 'Pacific/Tongatapu', "Nuku'alofa"],
  ['Samoa Standard Time', 'Pacific/Apia', 'Samoa'],
  ['Line Islands Standard Time', 'Pacific/Kiritimati', 'Kiritimati Island'],
];

/** Lower case without accents (`Brasília`), `&` as `and`, punctuation and runs of spaces as one space: how two spellings of one name compare. */
const key = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9+-]+/g, ' ')
    .trim();

/** The IANA zones of the Windows zones, in the table's order (by offset): the zones people mostly mean. */
export const WINDOWS_IANA_ZONES: readonly string[] = [...new Set(WINDOWS_ZONES.map(([, iana]) => iana))];

const BY_ID = new Map(WINDOWS_ZONES.map(([id, iana]) => [key(id), iana]));
const BY_DISPLAY = new Map(WINDOWS_ZONES.map(([, iana, display]) => [key(display), iana]));
/** Each place of the display names (`berlin`, `eastern time us and canada`) to its zone, when only one zone names it. */
const BY_PLACE = (() => {
  const places = new Map<string, string | null>();
  for (const [, iana, display] of WINDOWS_ZONES)
    for (const place of display.split(',').map(key))
      places.set(place, places.has(place) && places.get(place) !== iana ? null : iana);
  return places;
})();

/** `(UTC-05:00) `, `(GMT+01.00) `, `(UTC) ` at the start of a display name. */
const OFFSET_PREFIX = /^\((?:UTC|GMT)(?:[+-]\d{1,2}(?:[:.]?\d{2})?)?\)\s*/i;

/**
 * The IANA zone of a Windows zone id (`Eastern Standard Time`, also its `Daylight Time` name) or
 * display name (`(UTC-05:00) Eastern Time (US & Canada)`, `(GMT+01:00) Amsterdam, Berlin, Bern,
 * Rome, Stockholm, Vienna`, or one of its places); null when it is neither.
 */
export function windowsZone(name: string): string | null {
  if (name.length > 200) return null;
  const id = key(name.replace(/ Daylight Time/i, ' Standard Time'));
  const display = name.replace(OFFSET_PREFIX, '');
  const found = BY_ID.get(id) ?? BY_DISPLAY.get(key(display));
  if (found) return found;
  // Another version's list of places (`Chihuahua, La Paz, Mazatlan`; Lotus Notes' `Amsterdam / Berlin`).
  for (const place of display.split(/[,/]/).map(key)) {
    const zone = BY_PLACE.get(place);
    if (zone) return zone;
  }
  return null;
}

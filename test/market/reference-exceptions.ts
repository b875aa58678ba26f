// Dates where the calendar deliberately differs from the reference session files, each with the
// source that shows the reference wrong there (the exchange's notice, or the press report quoting
// it). An entry covers the dates from..to (both included) on which the reference or the calendar
// trades; `ours` is the calendar's answer there in the reference test's notation: `closed`, or the
// session's UTC `HH:MM-HH:MMZ` (with ` break HH:MM-HH:MM`).

export interface ReferenceException {
  market: string;
  from: string;
  to: string;
  ours: string;
  source: string;
}

// BMV keeps its session on the New York clock: 07:30-14:00 Mexico City while New York is on
// daylight time and Mexico City is not (the reference keeps 08:30-15:00).
const BMV_NEW_YORK_CLOCK = 'BMV notices on the US daylight-time switches, quoted by Bloomberg Linea 2022-09-29 (BMV: the '
  + 'exchange "always aligns its hours with New York"; BMV and BIVA announce the 7:30-14:00 session in advance) and El CEO '
  + '2023-03 (until 2022 the shift lasted only the weeks between the US and Mexican switch dates)';
const bmvWeeks = (from: string, to: string): ReferenceException => ({ market: 'MX', from, to, ours: '13:30-20:00Z', source: BMV_NEW_YORK_CLOCK });

// HKEX cancels all trading when a No. 8 typhoon signal or a black rainstorm warning is in force at noon.
const HKEX_SEVERE_WEATHER = 'HKEX announcements of 1 and 8 September 2023 (reproduced by Mondo Visione 2023-09-08); '
  + 'SCMP 2023-09-08: full-day halts on 1 September (Typhoon Saola) and 8 September (black rainstorm)';

// B3 closes at 17:00 Sao Paulo while New York is on daylight time (the reference keeps 18:00 from
// November 2019 on).
const B3_NEW_YORK_CLOSE = 'B3 notices on the US daylight-time switches, reported by Exame 2021-03-15 (17:00 from 15 March '
  + '2021, 18:00 since 3 November 2020), Folhapress 2022-03-14 (17:00 from 14 March 2022, "an adjustment made every year"), '
  + 'Metropoles 2024 (17:00 from 11 March 2024) and 2025 (17:00 from 10 March 2025)';
const b3Summer = (from: string, to: string): ReferenceException => ({ market: 'BR', from, to, ours: '13:00-20:00Z', source: B3_NEW_YORK_CLOSE });

// PSE's schedule from 6 December 2021: continuous trading 09:30-12:00 and 13:00-14:45, then the
// pre-close auction and the run-off to 15:00 (the reference keeps the 15:30 close of 2012-2020);
// 14 January to 28 February 2022 the pre-close came at 12:45 and there was no afternoon.
const PSE_2021_SCHEDULE = 'PSE memorandum of 2021-11-22 (ABS-CBN 2021-11-23: from 6 December 2021 market open 09:30, '
  + 'recess 12:00-13:00, pre-close 14:45, run-off 14:50, close 15:00) and of 2022-02 (ABS-CBN 2022-02-23: the same '
  + 'schedule again from 1 March 2022)';
const PSE_2022_SHORT = 'PSE circular of January 2022 (Manila Bulletin 2022-01-26: shortened hours from 14 January, '
  + 'pre-close 12:45, close 13:00; the return to full days announced for 2 February was withdrawn) and ABS-CBN 2022-02-23 '
  + '(full days again from 1 March 2022)';

// PSE's pandemic schedule of 2020-2021: from 16 March 2020 one morning session to the 12:45
// pre-close (09:00 open from 19 March to 14 April), no trading on 17-18 March 2020; half days on
// 24 and 31 December 2021 (the reference keeps 15:30 and closes those two days).
const PSE_2020_SCHEDULE = 'PSE memorandum (Rappler 2020-03-15: from 16 March pre-close 12:45, market close 13:00; 17 March '
  + 'to 14 April market open 09:00) and Philstar 2021-11-23 (trading shortened to end by 1 p.m. from 16 March 2020 until '
  + '6 December 2021)';
const PSE_2020_SUSPENSION = 'PSE memorandum of 16 March 2020 (Philstar 2020-03-17: no trading from 17 March; Manila '
  + 'Bulletin 2020-03-18: resuming 19 March)';
const PSE_2021_HALF_DAYS = 'PSE memorandum (ABS-CBN 2021-12-15: half-day trading on 24 and 31 December 2021, pre-close 11:55)';

// IDX closes on the collective leave (cuti bersama) days the government adds to the decree.
const IDX_2022_EID = 'IDX notice amending the 2022 holiday calendar for the Eid al-Fitr collective leave of 29 April and '
  + '4-6 May 2022 (quoted by traderharian.com); trading resumed on 9 May';
const IDX_2025_AUGUST = 'IDX "Hari Libur Bursa" 2025 announcement, amended for the 18 August 2025 collective leave '
  + '(SKB amendment on the day after Independence Day)';

const BURSA_2024 = 'Bursa Malaysia trading holidays 2024 (Nuzul Al-Quran on Thursday 28 March 2024)';
const BURSA_2021_FT = 'Bursa Malaysia statement (The Malaysian Reserve 2021-12-02): closed on 3 December 2021, the '
  + 'Federal Territories holiday for the Malaysia Cup final';
const BURSA_2025_MALAYSIA_DAY = 'Bursa Malaysia statement (Oriental Daily 2025-08-26): closed on 1, 5, 15 and 16 September '
  + '2025, the 15th a special public holiday for Malaysia Day';
const BURSA_2026_EVE = 'Bursa Malaysia notice on Hari Raya Aidilfitri 2026 (Malay Mail 2026-03-13): normal trading hours '
  + 'on the eve';

// TWSE traded and settled on the make-up workday Saturdays until 2018.
const TWSE_SATURDAYS = 'TWSE holiday schedules 2017 and 2018 (each lists its make-up Saturdays as trading days); Liberty '
  + 'Times 2016 (ec.ltn.com.tw 1569388: 30 January 2016 a trading day) and 2018-11-20 (from 2019 the make-up Saturdays '
  + 'are neither trading nor settlement days)';
const twseSaturday = (date: string): ReferenceException => ({ market: 'TW', from: date, to: date, ours: '01:00-05:30Z', source: TWSE_SATURDAYS });
const TWSE_2022 = 'TWSE 2022 (ROC 111) market holiday schedule as reproduced on coco-in.net: 4 February 2022 an adjusted holiday';
const TWSE_2023 = 'TWSE 2023 (ROC 112) market holiday schedule (KGI Securities copy; cnyes on Yahoo): 18-19 January 2023 '
  + 'settlement only, no trading';
const TWSE_2024_KONG_REY = 'TWSE closure for Typhoon Kong-rey on 31 October 2024 (Taipei typhoon day; markets shut)';

const TADAWUL_FOUNDING_DAY = 'Royal order of 27 January 2022 making 22 February Founding Day, a holiday from 2022 on: '
  + 'Tadawul traded on 22 February 2021';
const TADAWUL_2022_NATIONAL_DAY = 'Saudi Exchange filing (zawya.com, "Tadawul to close on Saudi National Day holiday"): '
  + 'no trading on Thursday 22 September 2022, resuming Sunday 25 September';
const TADAWUL_2024_EID = 'Saudi Exchange statement (zawya.com, "Saudi Tadawul keeps trading hours unchanged for Ramadan"): '
  + 'closed from the end of trading on 4 April 2024, resuming 14 April';
const TADAWUL_2025_ADHA = 'Saudi Exchange announcement (economymiddleeast.com, "Eid al-Adha 2025: Saudi Exchange announces '
  + '6-day holiday"; eastcoastdaily.in 2025-05-28): closed 5-10 June 2025, resuming 11 June';

export const REFERENCE_EXCEPTIONS: readonly ReferenceException[] = [
  bmvWeeks('2015-03-09', '2015-04-03'), bmvWeeks('2015-10-26', '2015-10-30'),
  bmvWeeks('2016-03-14', '2016-04-01'), bmvWeeks('2016-10-31', '2016-11-04'),
  bmvWeeks('2017-03-13', '2017-03-31'), bmvWeeks('2017-10-30', '2017-11-03'),
  bmvWeeks('2018-03-12', '2018-03-30'), bmvWeeks('2018-10-29', '2018-11-02'),
  bmvWeeks('2019-03-11', '2019-04-05'), bmvWeeks('2019-10-28', '2019-11-01'),
  bmvWeeks('2020-03-09', '2020-04-03'),
  b3Summer('2020-03-09', '2020-10-30'), b3Summer('2021-03-15', '2021-11-05'), b3Summer('2022-03-14', '2022-11-04'),
  b3Summer('2023-03-13', '2023-11-03'), b3Summer('2024-03-11', '2024-11-01'), b3Summer('2025-03-10', '2025-10-31'),
  b3Summer('2026-03-09', '2026-07-03'),
  { market: 'PH', from: '2020-03-16', to: '2020-03-16', ours: '01:30-04:45Z', source: PSE_2020_SCHEDULE },
  { market: 'PH', from: '2020-03-17', to: '2020-03-18', ours: 'closed', source: PSE_2020_SUSPENSION },
  { market: 'PH', from: '2020-03-19', to: '2020-04-14', ours: '01:00-04:45Z', source: PSE_2020_SCHEDULE },
  { market: 'PH', from: '2020-04-15', to: '2021-12-03', ours: '01:30-04:45Z', source: PSE_2020_SCHEDULE },
  { market: 'PH', from: '2021-12-24', to: '2021-12-24', ours: '01:30-03:55Z', source: PSE_2021_HALF_DAYS },
  { market: 'PH', from: '2021-12-31', to: '2021-12-31', ours: '01:30-03:55Z', source: PSE_2021_HALF_DAYS },
  { market: 'PH', from: '2021-12-06', to: '2022-01-13', ours: '01:30-06:45 break 04:00-05:00Z', source: PSE_2021_SCHEDULE },
  { market: 'PH', from: '2022-01-14', to: '2022-02-28', ours: '01:30-04:45Z', source: PSE_2022_SHORT },
  { market: 'PH', from: '2022-03-01', to: '2026-04-07', ours: '01:30-06:45 break 04:00-05:00Z', source: PSE_2021_SCHEDULE },
  { market: 'ID', from: '2022-04-29', to: '2022-04-29', ours: 'closed', source: IDX_2022_EID },
  { market: 'ID', from: '2022-05-04', to: '2022-05-06', ours: 'closed', source: IDX_2022_EID },
  { market: 'ID', from: '2025-08-18', to: '2025-08-18', ours: 'closed', source: IDX_2025_AUGUST },
  { market: 'MY', from: '2021-12-03', to: '2021-12-03', ours: 'closed', source: BURSA_2021_FT },
  { market: 'MY', from: '2024-03-27', to: '2024-03-27', ours: '01:00-09:00 break 04:30-06:30Z', source: BURSA_2024 },
  { market: 'MY', from: '2024-03-28', to: '2024-03-28', ours: 'closed', source: BURSA_2024 },
  { market: 'MY', from: '2025-09-15', to: '2025-09-15', ours: 'closed', source: BURSA_2025_MALAYSIA_DAY },
  { market: 'MY', from: '2026-03-20', to: '2026-03-20', ours: '01:00-09:00 break 04:30-06:30Z', source: BURSA_2026_EVE },
  twseSaturday('2016-01-30'), twseSaturday('2017-02-18'), twseSaturday('2017-06-03'), twseSaturday('2017-09-30'),
  twseSaturday('2018-03-31'), twseSaturday('2018-12-22'),
  { market: 'TW', from: '2022-02-04', to: '2022-02-04', ours: 'closed', source: TWSE_2022 },
  { market: 'TW', from: '2023-01-18', to: '2023-01-18', ours: 'closed', source: TWSE_2023 },
  { market: 'TW', from: '2024-10-31', to: '2024-10-31', ours: 'closed', source: TWSE_2024_KONG_REY },
  { market: 'SA', from: '2021-02-22', to: '2021-02-22', ours: '07:00-12:00Z', source: TADAWUL_FOUNDING_DAY },
  { market: 'SA', from: '2022-09-22', to: '2022-09-22', ours: 'closed', source: TADAWUL_2022_NATIONAL_DAY },
  { market: 'SA', from: '2024-04-14', to: '2024-04-15', ours: '07:00-12:00Z', source: TADAWUL_2024_EID },
  { market: 'SA', from: '2025-06-04', to: '2025-06-04', ours: '07:00-12:00Z', source: TADAWUL_2025_ADHA },
  { market: 'SA', from: '2025-06-10', to: '2025-06-10', ours: 'closed', source: TADAWUL_2025_ADHA },
  { market: 'HK', from: '2023-09-01', to: '2023-09-01', ours: 'closed', source: HKEX_SEVERE_WEATHER },
  { market: 'HK', from: '2023-09-08', to: '2023-09-08', ours: 'closed', source: HKEX_SEVERE_WEATHER },
];

export function exceptionOn(market: string, date: string): ReferenceException | undefined {
  return REFERENCE_EXCEPTIONS.find((e) => e.market === market && e.from <= date && date <= e.to);
}

// Dated SET (Stock Exchange of Thailand) closures 2015-2026. SET closes on the Thai public and
// bank holidays, their substitution days and the special holidays the cabinet declares, which the
// date-holidays rules only partly know (lunar Buddhist dates, substitution days, cabinet days).
// source: the closures of the reference sessions (exchange_calendars XBKK, itself kept from SET's
// annual holiday lists), named after the rules' holiday on that date or the one it substitutes;
// no SET list was checked line by line. Later years fall back to the rules (asia-pacific.ts).
import { parseDatedTable } from '../holiday-rules.ts';

export const SET_YEARS = parseDatedTable(`
  @source the closures of the reference sessions (exchange_calendars XBKK), kept from SET's annual holiday lists
  2015-01-01 New Year's Day
  2015-01-02 Special holiday (New Year)
  2015-03-04 Makha Bucha
  2015-04-06 Chakri Memorial Day
  2015-04-13 Songkran Festival
  2015-04-14 Songkran Festival
  2015-04-15 Songkran Festival
  2015-05-01 Labour Day
  2015-05-04 Coronation Day
  2015-05-05 Coronation Day
  2015-06-01 Visakha Bucha
  2015-07-01 Mid-year bank holiday
  2015-07-30 Asalha Puja
  2015-08-12 The Queen Mother's Birthday
  2015-10-23 King Chulalongkorn Day
  2015-12-07 King Bhumibol Adulyadej's Birthday (substitution day)
  2015-12-10 Constitution Day
  2015-12-31 New Year's Eve
  2016-01-01 New Year's Day
  2016-02-22 Makha Bucha
  2016-04-06 Chakri Memorial Day
  2016-04-13 Songkran Festival
  2016-04-14 Songkran Festival
  2016-04-15 Songkran Festival
  2016-05-02 Special holiday
  2016-05-05 Coronation Day
  2016-05-06 Coronation Day (substitution day)
  2016-05-20 Visakha Bucha
  2016-07-01 Mid-year bank holiday
  2016-07-18 Special holiday (Buddhist Lent)
  2016-07-19 Asalha Puja
  2016-08-12 The Queen Mother's Birthday
  2016-10-24 King Chulalongkorn Day (substitution day)
  2016-12-05 King Bhumibol Adulyadej's Birthday
  2016-12-12 Constitution Day (substitution day)
  2017-01-02 New Year's Day (substitution day)
  2017-01-03 New Year's Day (substitution day)
  2017-02-13 Makha Bucha (substitution day)
  2017-04-06 Chakri Memorial Day
  2017-04-13 Songkran Festival
  2017-04-14 Songkran Festival
  2017-05-01 Labour Day
  2017-05-10 Vesak Day
  2017-07-10 Buddhist Lent (substitution day)
  2017-07-28 King's Birthday
  2017-08-14 The Queen Mother's Birthday (substitution day)
  2017-10-13 King Bhumibol Adulyadej Memorial Day
  2017-10-23 King Chulalongkorn Day
  2017-10-26 Royal Cremation Ceremony of King Bhumibol Adulyadej
  2017-12-05 King Bhumibol Adulyadej's Birthday
  2017-12-11 Constitution Day (substitution day)
  2018-01-01 New Year's Day
  2018-01-02 Special holiday (New Year)
  2018-03-01 Makha Bucha
  2018-04-06 Chakri Memorial Day
  2018-04-13 Songkran Festival
  2018-04-16 Songkran Festival (substitution day)
  2018-05-01 Labour Day
  2018-05-29 Vesak Day
  2018-07-27 Asalha Puja
  2018-07-30 Buddhist Lent (substitution day)
  2018-08-13 The Queen Mother's Birthday (substitution day)
  2018-10-15 King Bhumibol Adulyadej Memorial Day (substitution day)
  2018-10-23 King Chulalongkorn Day
  2018-12-05 King Bhumibol Adulyadej's Birthday
  2018-12-10 Constitution Day
  2018-12-31 New Year's Eve
  2019-01-01 New Year's Day
  2019-02-19 Makha Bucha
  2019-04-08 Chakri Memorial Day (substitution day)
  2019-04-15 Songkran Festival
  2019-04-16 Songkran Festival (substitution day)
  2019-05-01 Labour Day
  2019-05-06 Coronation Day (substitution day)
  2019-05-20 Vesak Day (substitution day)
  2019-06-03 Queen Suthida's Birthday
  2019-07-16 Asalha Puja
  2019-07-29 King's Birthday (substitution day)
  2019-08-12 The Queen Mother's Birthday
  2019-10-14 King Bhumibol Adulyadej Memorial Day (substitution day)
  2019-10-23 King Chulalongkorn Day
  2019-12-05 King Bhumibol Adulyadej's Birthday
  2019-12-10 Constitution Day
  2019-12-31 New Year's Eve
  2020-01-01 New Year's Day
  2020-02-10 Makha Bucha (substitution day)
  2020-04-06 Chakri Memorial Day
  2020-04-13 Songkran Festival
  2020-04-14 Songkran Festival
  2020-04-15 Songkran Festival
  2020-05-01 Labour Day
  2020-05-04 Coronation Day
  2020-05-06 Coronation Day (substitution day)
  2020-06-03 Queen Suthida's Birthday
  2020-07-06 Buddhist Lent (substitution day)
  2020-07-28 King's Birthday
  2020-08-12 The Queen Mother's Birthday
  2020-10-13 King Bhumibol Adulyadej Memorial Day
  2020-10-23 King Chulalongkorn Day
  2020-12-07 King Bhumibol Adulyadej's Birthday (substitution day)
  2020-12-10 Constitution Day
  2020-12-31 New Year's Eve
  2021-01-01 New Year's Day
  2021-02-12 Special holiday (Chinese New Year)
  2021-02-26 Makha Bucha
  2021-04-06 Chakri Memorial Day
  2021-04-13 Songkran Festival
  2021-04-14 Songkran Festival
  2021-04-15 Songkran Festival
  2021-05-03 Labour Day (substitution day)
  2021-05-04 Coronation Day
  2021-05-26 Vesak Day
  2021-06-03 Queen Suthida's Birthday
  2021-07-26 Buddhist Lent (substitution day)
  2021-07-28 King's Birthday
  2021-08-12 The Queen Mother's Birthday
  2021-09-24 Special holiday
  2021-10-13 King Bhumibol Adulyadej Memorial Day
  2021-10-22 King Chulalongkorn Day (substitution day)
  2021-10-25 King Chulalongkorn Day (substitution day)
  2021-12-06 King Bhumibol Adulyadej's Birthday (substitution day)
  2021-12-10 Constitution Day
  2021-12-31 New Year's Eve
  2022-01-03 New Year's Day (substitution day)
  2022-02-16 Makha Bucha
  2022-04-06 Chakri Memorial Day
  2022-04-13 Songkran Festival
  2022-04-14 Songkran Festival
  2022-04-15 Songkran Festival
  2022-05-02 Labour Day (substitution day)
  2022-05-04 Coronation Day
  2022-05-16 Vesak Day
  2022-06-03 Queen Suthida's Birthday
  2022-07-13 Asalha Puja
  2022-07-28 King's Birthday
  2022-07-29 Special holiday
  2022-08-12 The Queen Mother's Birthday
  2022-10-13 King Bhumibol Adulyadej Memorial Day
  2022-10-14 King Bhumibol Adulyadej Memorial Day (substitution day)
  2022-10-24 King Chulalongkorn Day (substitution day)
  2022-12-05 King Bhumibol Adulyadej's Birthday
  2022-12-12 Constitution Day (substitution day)
  2023-01-02 New Year's Day (substitution day)
  2023-01-03 New Year's Day (substitution day)
  2023-03-06 Makha Bucha
  2023-04-06 Chakri Memorial Day
  2023-04-13 Songkran Festival
  2023-04-14 Songkran Festival
  2023-05-01 Labour Day
  2023-05-04 Vesak Day
  2023-05-05 Special holiday (Coronation Day)
  2023-06-05 Queen Suthida's Birthday (substitution day)
  2023-07-28 King's Birthday
  2023-08-01 Buddhist Lent
  2023-08-14 The Queen Mother's Birthday (substitution day)
  2023-10-13 King Bhumibol Adulyadej Memorial Day
  2023-10-23 King Chulalongkorn Day
  2023-12-05 King Bhumibol Adulyadej's Birthday
  2023-12-11 Constitution Day (substitution day)
  2023-12-29 Special holiday (New Year)
  2024-01-01 New Year's Day
  2024-01-02 Special holiday (New Year)
  2024-02-26 Makha Bucha (substitution day)
  2024-04-08 Chakri Memorial Day (substitution day)
  2024-04-12 Special holiday (Songkran)
  2024-04-15 Songkran Festival
  2024-04-16 Songkran Festival (substitution day)
  2024-05-01 Labour Day
  2024-05-06 Coronation Day (substitution day)
  2024-05-22 Vesak Day
  2024-06-03 Queen Suthida's Birthday
  2024-07-22 Buddhist Lent (substitution day)
  2024-07-29 King's Birthday (substitution day)
  2024-08-12 The Queen Mother's Birthday
  2024-10-14 King Bhumibol Adulyadej Memorial Day (substitution day)
  2024-10-23 King Chulalongkorn Day
  2024-12-05 King Bhumibol Adulyadej's Birthday
  2024-12-10 Constitution Day
  2024-12-31 New Year's Eve
  2025-01-01 New Year's Day
  2025-02-12 Makha Bucha
  2025-04-07 Chakri Memorial Day (substitution day)
  2025-04-14 Songkran Festival
  2025-04-15 Songkran Festival
  2025-05-01 Labour Day
  2025-05-05 Coronation Day (substitution day)
  2025-05-12 Vesak Day
  2025-06-02 Special holiday (Queen Suthida's Birthday)
  2025-06-03 Queen Suthida's Birthday
  2025-07-10 Asalha Puja
  2025-07-28 King's Birthday
  2025-08-11 The Queen Mother's Birthday (substitution day)
  2025-08-12 The Queen Mother's Birthday
  2025-10-13 King Bhumibol Adulyadej Memorial Day
  2025-10-23 King Chulalongkorn Day
  2025-12-05 King Bhumibol Adulyadej's Birthday
  2025-12-10 Constitution Day
  2025-12-31 New Year's Eve
  2026-01-01 New Year's Day
  2026-01-02 Special holiday (New Year)
  2026-03-03 Makha Bucha
  2026-04-06 Chakri Memorial Day
  2026-04-13 Songkran Festival
  2026-04-14 Songkran Festival
  2026-04-15 Songkran Festival
  2026-05-01 Labour Day
  2026-05-04 Coronation Day
  2026-06-01 Vesak Day (substitution day)
  2026-06-03 Queen Suthida's Birthday
  2026-07-28 King's Birthday
  2026-07-29 Asalha Puja
  2026-08-12 The Queen Mother's Birthday
  2026-10-13 King Bhumibol Adulyadej Memorial Day
  2026-10-23 King Chulalongkorn Day
  2026-12-07 King Bhumibol Adulyadej's Birthday (substitution day)
  2026-12-10 Constitution Day
  2026-12-31 New Year's Eve
`, 'TH');

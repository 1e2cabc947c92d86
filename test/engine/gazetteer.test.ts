import { describe, expect, it } from 'vitest';
import { allCountryCodes, countriesMentioned, expandRegions, unknownRegions } from '../../src/engine/gazetteer.js';

const mentioned = (text: string): string[] => [...countriesMentioned(text)].sort();

describe('countriesMentioned', () => {
  it('covers the world from the package, not a short hand list', () => {
    expect(allCountryCodes().size).toBeGreaterThanOrEqual(240);
    expect(mentioned('Trials ran in Burkina Faso, Kyrgyzstan, Vanuatu and Suriname.')).toEqual(['BF', 'KG', 'SR', 'VU']);
  });

  it('matches common, official and alternative names, with or without accents', () => {
    expect(mentioned('the Federal Republic of Germany')).toEqual(['DE']);
    expect(mentioned("Côte d'Ivoire and Cote d'Ivoire and Ivory Coast")).toEqual(['CI']);
    expect(mentioned('Holland')).toEqual(['NL']);
    expect(mentioned('Swaziland')).toEqual(['SZ']);
    expect(mentioned('TÜRKIYE')).toEqual(['TR']);
  });

  it('prefers the longest name: Guinea inside Papua New Guinea or Equatorial Guinea is not Guinea', () => {
    expect(mentioned('Papua New Guinea')).toEqual(['PG']);
    expect(mentioned('Equatorial Guinea')).toEqual(['GQ']);
    expect(mentioned('Guinea-Bissau')).toEqual(['GW']);
    expect(mentioned('Guinea')).toEqual(['GN']);
    expect(mentioned('South Sudan')).toEqual(['SS']);
    expect(mentioned('Sudan and South Sudan')).toEqual(['SD', 'SS']);
    expect(mentioned('DR Congo')).toEqual(['CD']);
  });

  it('matches whole words only', () => {
    expect(mentioned('Nigeria')).toEqual(['NG']);
    expect(mentioned('Nigerian exports')).toEqual([]);
    expect(mentioned('Omani')).toEqual([]);
    expect(mentioned('a woman in Romania')).toEqual(['RO']);
    expect(mentioned('Indiana')).toEqual([]);
  });

  it('is case-insensitive for ordinary names', () => {
    expect(mentioned('FRANCE and france and France')).toEqual(['FR']);
  });

  it('takes care with names that are also common words', () => {
    expect(mentioned('roast turkey on fine china')).toEqual([]);
    expect(mentioned('Turkey and China signed it')).toEqual(['CN', 'TR']);
    expect(mentioned('Guinea pigs were used')).toEqual([]);
    expect(mentioned('a new jersey; offices in New Jersey and New Mexico')).toEqual([]);
    expect(mentioned('Chad and Jordan')).toEqual(['JO', 'TD']);
  });

  it('reads short forms only in capitals', () => {
    expect(mentioned('the US and the UK')).toEqual(['GB', 'US']);
    expect(mentioned('the U.S. economy')).toEqual(['US']);
    expect(mentioned('tell us about it')).toEqual([]);
    expect(mentioned('USA')).toEqual(['US']);
    expect(mentioned('usa')).toEqual([]);
  });

  it('reads the UK’s constituent countries as the UK', () => {
    expect(mentioned('England, Scotland, Wales and Northern Ireland')).toEqual(['GB']);
    expect(mentioned('Northern Ireland')).toEqual(['GB']);
  });
});

describe('expandRegions', () => {
  it('expands Europe (a world-countries region) to its countries', () => {
    const europe = expandRegions(['Europe']);
    for (const c of ['FR', 'DE', 'NO', 'CH', 'GB', 'UA']) expect(europe.has(c), c).toBe(true);
    for (const c of ['US', 'JP', 'BR']) expect(europe.has(c), c).toBe(false);
  });

  it('expands EU and European Union to the 27 member states', () => {
    const eu = expandRegions(['EU']);
    expect(eu.size).toBe(27);
    expect(expandRegions(['european union'])).toEqual(eu);
    for (const c of ['FR', 'DE', 'IE', 'HR', 'CY']) expect(eu.has(c), c).toBe(true);
    for (const c of ['GB', 'NO', 'CH']) expect(eu.has(c), c).toBe(false);
    for (const c of eu) expect(allCountryCodes().has(c), c).toBe(true);
  });

  it('accepts subregions, ISO codes and country names, and unions them', () => {
    expect(expandRegions(['Western Europe']).has('FR')).toBe(true);
    expect(expandRegions(['Western Europe']).has('PL')).toBe(false);
    expect([...expandRegions(['de', 'JPN', 'Brazil', 'UK'])].sort()).toEqual(['BR', 'DE', 'GB', 'JP']);
    expect(expandRegions(['Americas']).has('BR')).toBe(true);
  });

  it('reports regions it cannot place and adds nothing for them', () => {
    expect(unknownRegions(['Europe', 'Atlantis', 'EU', ''])).toEqual(['Atlantis', '']);
    expect(expandRegions(['Atlantis']).size).toBe(0);
  });
});

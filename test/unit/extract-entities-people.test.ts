import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findPeople } from '../../server/src/extract/entities/people.ts';

function people(text: string): [string, string][] {
  return findPeople(text).map((p) => [p.surface, p.key]);
}

test('honorific and one to three name words; the key drops the honorific', () => {
  assert.deepEqual(people('Dr. Amara Osei met Ms Amara Osei, then Prof. Lin and Mr. John F. Kennedy.'), [
    ['Dr. Amara Osei', 'person:amara osei'],
    ['Ms Amara Osei', 'person:amara osei'],
    ['Prof. Lin', 'person:lin'],
    ['Mr. John F. Kennedy', 'person:john f kennedy'],
  ]);
});

test('every honorific of the list', () => {
  for (const h of ['Mr.', 'Mrs.', 'Ms.', 'Miss', 'Dr.', 'Prof.', 'Sir', 'Dame', 'Lord', 'Lady', 'Mx.']) {
    assert.deepEqual(people(`Signed by ${h} Jordan Hale today.`), [[`${h} Jordan Hale`, 'person:jordan hale']], h);
  }
  assert.deepEqual(people('Rev. Amara Osei'), [['Rev. Amara Osei', 'person:amara osei']]);
});

test('upper-case names in signature blocks', () => {
  assert.deepEqual(people('Name: MR. SEI-PENG TU\nTitle: President'), [['MR. SEI-PENG TU', 'person:sei-peng tu']]);
});

test('stacked titles, particles and a possessive', () => {
  assert.deepEqual(people("Rev. Dr. Amara Osei read Dr. Ludwig van Beethoven's letter."), [
    ['Rev. Dr. Amara Osei', 'person:amara osei'],
    ['Dr. Ludwig van Beethoven', 'person:ludwig van beethoven'],
  ]);
});

test('the name ends at a signature-block label or title', () => {
  assert.deepEqual(people('Print Name: Dr. Wendy Graham Print Name: Albert'), [['Dr. Wendy Graham', 'person:wendy graham']]);
  assert.deepEqual(people('Attn: Mr. Wei Li Fax: 86-0755'), [['Mr. Wei Li', 'person:wei li']]);
});

test('brand characters are not people (a documented stop-list)', () => {
  assert.deepEqual(people('We stock Mr. Clean, Mr. Softee ice cream, Dr. Pepper and Dr Pepper.'), []);
});

test('a trademark sign after the name marks a brand', () => {
  assert.deepEqual(people('Try Mr. Fresh™ today'), []);
});

test('"Dr." after a street name and a house number is Drive', () => {
  assert.deepEqual(people('Send it to 12 Harbour Dr. Springfield, IL 62701.'), []);
  assert.deepEqual(people('Visit 4500 Ocean View Dr Springfield'), []);
  // A doctor after a capitalised word without a house number is still a doctor.
  assert.deepEqual(people('Contact Dr. Osei tomorrow.'), [['Dr. Osei', 'person:osei']]);
});

test('hard negatives: abbreviations that look like honorifics', () => {
  assert.deepEqual(people('Open it in MS Word or MS Excel.'), []);
  assert.deepEqual(people('See Wash. Rev. Code 19.100.180 and Rev. B of the drawing.'), []);
  assert.deepEqual(people('Stanley House, Lord Street, Douglas'), []);
  assert.deepEqual(people('Dear Sir or Madam,'), []);
  assert.deepEqual(people('we must not miss Deadlines'), []);
});

function peopleIn(language: string, text: string): [string, string][] {
  return findPeople(text, language).map((p) => [p.surface, p.key]);
}

test('the French "M." is an honorific before a name in a French item', () => {
  const minutes =
    'Compte rendu de la réunion du 12 mars. Présents : Mme Claire Dubois, M. Jean-Pierre Martin et M. Dupont.\n' +
    'M. Martin présente le budget ; le contrat a été signé par M. Luc Moreau le 3 avril.';
  assert.deepEqual(peopleIn('fr', minutes), [
    ['Mme Claire Dubois', 'person:claire dubois'],
    ['M. Jean-Pierre Martin', 'person:jean-pierre martin'],
    ['M. Dupont', 'person:dupont'],
    ['M. Martin', 'person:martin'],
    ['M. Luc Moreau', 'person:luc moreau'],
  ]);
});

test('"M." is an initial after a name or an initial, and outside a French item', () => {
  // A French bibliography: the initials of authors, not honorifics.
  assert.deepEqual(peopleIn('fr', "Voir J. M. Keynes (1936) et l'article de Jean M. Dupont sur la monnaie."), []);
  // The same words in an English item: "M." is an initial there.
  assert.deepEqual(peopleIn('en', 'The report by M. Dupont and M. Smith was filed.'), []);
  assert.deepEqual(peopleIn('en', 'Signed, M. Jean Dupont'), []);
  // "M." before lower-case words or a figure names nobody.
  assert.deepEqual(peopleIn('fr', 'La valeur M. est calculée à partir de M. 12.'), []);
});

test('the Spanish and Portuguese "Sr." is an honorific before a name in an item of theirs', () => {
  const letter =
    'Estimado Sr. García:\nLe escribimos en relación con el contrato firmado el 4 de mayo. El Sr. José García López ' +
    'y la Sra. Ana Torres revisaron las cifras con el Sr. Ruiz.';
  assert.deepEqual(peopleIn('es', letter), [
    ['Sr. García', 'person:garcía'],
    ['Sr. José García López', 'person:josé garcía lópez'],
    ['Sra. Ana Torres', 'person:ana torres'],
    ['Sr. Ruiz', 'person:ruiz'],
  ]);
  assert.deepEqual(peopleIn('pt', 'A reunião foi conduzida pelo Sr. João Almeida.'), [['Sr. João Almeida', 'person:joão almeida']]);
});

test('"Sr." is "Senior" after a name, before a job title, and outside a Spanish or Portuguese item', () => {
  assert.deepEqual(peopleIn('es', 'El jugador Ken Griffey Sr. Mariners fue entrevistado.'), []);
  assert.deepEqual(peopleIn('es', 'Fue nombrado Sr. Vice President de la empresa.'), []);
  assert.deepEqual(peopleIn('en', 'Our Sr. Software Engineer met Sr. Garcia and John Smith Sr. yesterday.'), []);
  assert.deepEqual(peopleIn('de', 'Sr. García war nicht anwesend.'), []);
});

/*
 * The cost calculator page (calc_html.c), first part: the data, and how the command line reads
 * and writes numbers and text (glibc's printf, util/parse.c, report/cost_fmt.c), for both
 * parts of the page (calc_page.js). The two files make one script.
 */
'use strict';
const D = JSON.parse(document.getElementById('calc-data').textContent);
const $ = (id) => document.getElementById(id);

/* ---- printf as glibc does it ---- */

/*
 * C's "%.Nf": the exact binary value of x rounded to N decimals, a tie to the even digit
 * (glibc rounds exactly, in the current rounding mode; JavaScript's toFixed breaks ties
 * upwards, so 0.125 would be 0.13 where printf says 0.12).
 */
function fixed(x, n) {
	if (!Number.isFinite(x))
		return Number.isNaN(x) ? 'nan' : x < 0 ? '-inf' : 'inf';
	const view = new DataView(new ArrayBuffer(8));
	view.setFloat64(0, x);
	const neg = view.getUint8(0) >> 7 === 1;
	const hi = view.getUint32(0) & 0x7fffffff, lo = view.getUint32(4);
	const bexp = hi >>> 20;
	let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo), e;
	if (bexp === 0) {
		e = -1074;
	} else {
		mant |= 1n << 52n;
		e = bexp - 1075;
	}
	/* |x| = mant * 2^e; q = |x| * 10^n rounded to an integer. */
	const scaled = mant * 10n ** BigInt(n);
	let q;
	if (e >= 0) {
		q = scaled << BigInt(e);
	} else {
		const den = 1n << BigInt(-e);
		q = scaled / den;
		const twice = (scaled % den) * 2n;
		if (twice > den || (twice === den && (q & 1n) === 1n))
			q += 1n;
	}
	let s = q.toString();
	if (n > 0) {
		s = s.padStart(n + 1, '0');
		s = s.slice(0, s.length - n) + '.' + s.slice(s.length - n);
	}
	return (neg ? '-' : '') + s;
}

/*
 * The 15 significant digits of "%.14e" (util/parse.c's decimal_digits()), trailing zeros
 * dropped, and the position of the decimal point: [digits, point], |x| = 0.digits * 10^point.
 */
function decimalDigits(a) {
	let e = Math.floor(Math.log10(a));
	for (let k = 0; k < 4 && 14 - e >= 0; k++) {
		const s = fixed(a, 14 - e).replace('.', '').replace(/^0+/, '');
		if (s.length !== 15) {
			e += s.length > 15 ? 1 : -1;
			continue;
		}
		return [s.replace(/0+$/, '') || '0', e + 1];
	}
	const t = a.toExponential(14).split('e');
	return [t[0].replace('.', '').replace(/0+$/, '') || '0', Number(t[1]) + 1];
}

/*
 * fmt_decimal(x, 0) (util/parse.c): a price as the list wrote it, every digit it has and no
 * exponent: 0.00099, 0.045, 0.2076.
 */
function decimal(x) {
	if (!Number.isFinite(x))
		return fixed(x, 0);
	if (x === 0)
		return '0';
	const [d, point] = decimalDigits(Math.abs(x));
	if (point < -40 || point > 40)
		return String(x);
	let out = x < 0 ? '-' : '';
	if (point <= 0)
		return out + '0.' + '0'.repeat(-point) + d;
	out += d.slice(0, point).padEnd(point, '0');
	return d.length > point ? out + '.' + d.slice(point) : out;
}

/* cost.c's qty(): a quantity derived by arithmetic, to the millionth, then as decimal(). */
const qty = (x) => decimal(Math.round(x * 1e6) / 1e6);

/* "%*s": right-aligned in width characters. */
const right = (s, width) => String(s).padStart(width, ' ');

/* fmt_size() (util/parse.c): "750GiB", "512KiB", "1000B". */
function fmtSize(n) {
	const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
	let u = 0;
	while (n !== 0n && (n & 1023n) === 0n && u < 6) {
		n >>= 10n;
		u++;
	}
	return n.toString() + units[u];
}

/*
 * A line of a cost breakdown holds at most 95 bytes (cost.c's char what[96]); a longer one
 * is cut there, here before a whole character.
 */
function clip(s) {
	const bytes = new TextEncoder().encode(s);
	if (bytes.length <= 95)
		return s;
	let end = 95;
	while (end > 0 && (bytes[end] & 0xc0) === 0x80)
		end--;
	return new TextDecoder().decode(bytes.subarray(0, end));
}

/* ---- what the command line accepts ---- */

const U64_MAX = (1n << 64n) - 1n;

/* parse_size() (util/parse.c): "750GiB", "4k", "1.5TiB", "1000"; null when refused. */
function parseSize(s) {
	const m = /^(\d*)(?:\.(\d*))?(?:([kmgtpe])(?:i?b)?|b)?$/i.exec(s);
	if (!m || (m[1] === '' && !m[2]))
		return null;
	const whole = BigInt(m[1] || '0'), frac = m[2] || '';
	const mult = m[3] ? 1n << (10n * BigInt('kmgtpe'.indexOf(m[3].toLowerCase()) + 1)) : 1n;
	const den = 10n ** BigInt(frac.length);
	const num = (whole * den + BigInt(frac || '0')) * mult;
	/* A fraction must come to whole bytes. */
	if (num % den !== 0n || num / den > U64_MAX || whole > U64_MAX)
		return null;
	return num / den;
}

/* parse_double() (util/parse.c): decimal, no sign, within [min, max]; null when refused. */
function parseNumber(s, min, max) {
	const m = /^(\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.exec(s);
	if (!m)
		return null;
	const v = Number(s);
	/* strtod() calls an underflow to 0 or an overflow out of range: so does iorate. */
	if (!Number.isFinite(v) || (v === 0 && /[1-9]/.test(m[1])))
		return null;
	return v < min || v > max ? null : v;
}

/* An optional price: empty is the catalog's (undefined), else a number or null (refused). */
function priceInput(id) {
	const s = $(id).value.trim();
	const v = s === '' ? undefined : parseNumber(s, 0, 1e9);
	fieldError(id, v === null ? `'${s}' is not a price (e.g. 0.05)` : '');
	return v;
}

function fieldError(id, msg) {
	$(id + '-error').textContent = msg;
	$(id).setAttribute('aria-invalid', msg ? 'true' : 'false');
}

/* ---- text shared by both parts (report/cost_fmt.c) ---- */

const source = (i) => {
	const s = D.sources[i];
	return {source: s[0], date: s[1], age: s[2] === null ? -1 : s[2], stale: s[3]};
};
const GIVEN = {source: 'given on the command line', date: 'given', age: -1, stale: false};

/* model_fmt_price_age(): the date, and whether and how it is stale. */
function priceAge(p) {
	if (!p.stale)
		return p.date;
	return p.age < 0 ? `${p.date}; STALE: of unknown age` :
		`${p.date}; STALE: ${p.age} days old`;
}

/* model_fmt_stale_note() */
function staleNote(n) {
	if (!n)
		return '';
	return `note: ${n} price line${n === 1 ? ' is' : 's are'} older than ` +
		`${D.stale_after_days} days or undated (STALE above); 'iorate catalog prices' ` +
		'downloads current ones';
}

/* "in northeurope in GBP", as the commands' messages say where a price was looked for. */
const where = (region, currency) =>
	(region ? ' in ' + region : '') + (currency ? ' in ' + currency : '');

function option(select, value, label) {
	const o = document.createElement('option');
	o.value = String(value);
	o.textContent = label;
	select.appendChild(o);
	return o;
}

function optgroup(select, label) {
	const g = document.createElement('optgroup');
	g.label = label;
	select.appendChild(g);
	return g;
}

function fill(select, items, value) {
	select.replaceChildren();
	for (const [v, label] of items)
		option(select, v, label);
	select.value = String(value);
	if (select.selectedIndex < 0 && select.options.length)
		select.selectedIndex = 0;
}

/* The chosen value of every control, as text, for print (and a screen reader). */
function showChosen(root) {
	for (const span of root.querySelectorAll('.chosen')) {
		const el = $(span.dataset.for);
		if (!el)
			continue;
		const label = el.closest('.field').querySelector('label');
		let text = el.tagName === 'SELECT' ?
			(el.selectedOptions[0] ? el.selectedOptions[0].textContent : '') : el.value;
		if (text === '' && el.placeholder)
			text = el.placeholder;
		span.textContent = (label ? label.textContent + ': ' : '') + text;
	}
}

/* Regions of a list of markets, then the currencies of one region. */
const regionsOf = (markets) => [...new Set(markets.map((m) => m.region))];
const marketOf = (markets, region, currency) =>
	markets.findIndex((m) => m.region === region && m.currency === currency);
const regionLabel = (r) => r === '' ? '(none given)' : r;

/* The market a command-line region and currency name (case aside), else the first. */
function initialMarket(markets, region, currency) {
	const eq = (a, b) => !b || a.toLowerCase() === b.toLowerCase();
	const i = markets.findIndex((m) => eq(m.region, region) && eq(m.currency, currency));
	return i < 0 ? 0 : i;
}

function fillMarket(regionSel, currencySel, markets, m) {
	const cur = markets[m] || {region: '', currency: ''};
	fill(regionSel, regionsOf(markets).map((r) => [r, regionLabel(r)]), cur.region);
	fill(currencySel, markets.filter((x) => x.region === cur.region)
		.map((x) => [x.currency, x.currency === '' ? '(none given)' : x.currency]),
	cur.currency);
}

/* The market after the region changed: the same currency there, else its first. */
function marketAfter(markets, region, currency) {
	const m = marketOf(markets, region, currency);
	return m >= 0 ? m : markets.findIndex((x) => x.region === region);
}

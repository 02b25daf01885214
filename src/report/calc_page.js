/*
 * The cost calculator page (calc_html.c). It computes what 'iorate cost upload' and 'iorate
 * cost config' print, from the data iorate embedded (docs/cost.md): the prices those commands
 * would find for every choice, and how each disk choice resolves on each VM. Every figure is
 * one formula, the same as in src/model/cost.c and in the same order of operations, on the
 * same IEEE doubles, and is printed as glibc's printf prints it, so the page shows the command
 * line's figures to the last digit. Nothing is fetched; text goes in through textContent only.
 * It follows calc_page_fmt.js in the same script, whose helpers it uses.
 */
(function () {
	/* ---- upload (cost.c: cost_upload; cost_fmt.c: cost_fmt_upload_text) ---- */

	const U = D.upload;
	const up = {market: 0};

	function uploadPrice(tier, red) {
		return U.prices.find((p) => p.market === up.market && p.tier === tier &&
			p.redundancy === red);
	}

	/*
	 * The upload priced, or {error}: cost_upload() with the page's inputs, one formula a figure:
	 *   transactions     = ceil(data / chunk)                   (integers)
	 *   gib              = data / 2^30
	 *   months           = keep / 30 when days kept are given
	 *   transaction_cost = transactions / 10000.0 * write_per_10k
	 *   storage_cost     = gib * per_gb_month * months
	 *   geo_cost         = gib * geo_per_gb                     (grs, ragrs; 0 when unknown)
	 *   early_cost       = gib * per_gb_month * (min_days - keep) / 30   (keep < min_days)
	 *   total            = transaction_cost + storage_cost + geo_cost + early_cost
	 */
	function uploadCost(u) {
		const r = {write: u.write, gb: u.gb, currency: null, price: null};
		const geo = u.red === 'grs' || u.red === 'ragrs';
		const p = uploadPrice(u.tier, u.red);
		r.geoPrice = u.geo === undefined ? -1 : u.geo;
		if (u.write === undefined || u.gb === undefined) {
			const m = U.markets[up.market] || {region: '', currency: ''};
			if (!p)
				return {error: `cost upload: no catalog price for ${u.tier} ${u.red} ` +
					`storage${where(m.region, m.currency)}; give --write-price and ` +
					'--gb-price (\'iorate catalog prices --provider azure --region ' +
					`${m.region || 'R'} --currency ${m.currency || 'USD'}' downloads ` +
					'Azure\'s)'};
			if (r.write === undefined)
				r.write = p.write_per_10k;
			if (r.gb === undefined)
				r.gb = p.per_gb_month;
			r.currency = p.currency;
			r.region = p.region;
			r.price = source(p.source);
			if (geo && u.geo === undefined && p.geo_per_gb !== null)
				r.geoPrice = p.geo_per_gb;
		}
		if (u.keep !== undefined) {
			r.keep = u.keep;
			r.months = u.keep / 30;
			r.assumed = false;
		} else {
			r.months = u.months;
			r.keep = r.months * 30;
			r.assumed = true;
		}
		/* One PUT per chunk; a partial last chunk is still a transaction. */
		r.transactions = u.data / u.chunk + (u.data % u.chunk !== 0n ? 1n : 0n);
		r.gib = Number(u.data) / 1073741824;
		r.transaction_cost = Number(r.transactions) / 10000.0 * r.write;
		r.storage_cost = r.gib * r.gb * r.months;
		r.geo = geo;
		r.geo_cost = geo && r.geoPrice >= 0 ? r.gib * r.geoPrice : 0;
		r.min_days = U.min_days[u.tier] || 0;
		r.early_days = r.keep < r.min_days ? r.min_days - r.keep : 0;
		r.early_cost = r.early_days > 0 ? r.gib * r.gb * r.early_days / 30 : 0;
		r.total = r.transaction_cost + r.storage_cost + r.geo_cost + r.early_cost;
		/* The same upload in the chunk sizes compared, at the prices found for the first. */
		r.by_chunk = U.compare.map((c) => {
			const chunk = BigInt(c);
			const tx = u.data / chunk + (u.data % chunk !== 0n ? 1n : 0n);
			return {chunk, transactions: tx, cost: Number(tx) / 10000.0 * r.write};
		});
		return r;
	}

	function uploadLines(u, r) {
		const cur = r.currency || '';
		const lines = [r.assumed ?
			`upload:        ${fmtSize(u.data)} (${fixed(r.gib, 2)} GiB) in ` +
			`${fmtSize(u.chunk)} chunks, ${fixed(r.months, 0)} month` +
			`${r.months === 1 ? '' : 's'} of storage` :
			`upload:        ${fmtSize(u.data)} (${fixed(r.gib, 2)} GiB) in ` +
			`${fmtSize(u.chunk)} chunks, kept ${decimal(r.keep)} days`,
			`transactions:  ${r.transactions} writes x ${decimal(r.write)} per 10,000 = ` +
			`${fixed(r.transaction_cost, 2)} ${cur}`,
			r.assumed ?
			`storage:       ${fixed(r.gib, 2)} GB x ${decimal(r.gb)} per GB-month x ` +
			`${fixed(r.months, 0)} = ${fixed(r.storage_cost, 2)} ${cur}` :
			`storage:       ${fixed(r.gib, 2)} GB x ${decimal(r.gb)} per GB-month x ` +
			`${decimal(r.keep)}/30 days = ${fixed(r.storage_cost, 2)} ${cur}`,
		];
		if (r.geo && r.geoPrice >= 0)
			lines.push(`geo-replication: ${fixed(r.gib, 2)} GB written x ` +
				`${decimal(r.geoPrice)} per GB = ${fixed(r.geo_cost, 2)} ${cur}`);
		else if (r.geo)
			lines.push(`geo-replication: ${fixed(r.gib, 2)} GB written x price unknown, ` +
				'not in the total');
		if (r.min_days) {
			lines.push(`retention:     ${u.tier} bills ${r.min_days} days at least; kept ` +
				`${decimal(r.keep)} days` +
				(r.assumed ? ' (assumed: the months stored; --keep-days DAYS)' : ''));
			if (r.early_days > 0)
				lines.push(`early deletion: ${fixed(r.gib, 2)} GB x ${decimal(r.gb)} per ` +
					`GB-month x ${decimal(r.early_days)}/30 days = ` +
					`${fixed(r.early_cost, 2)} ${cur}`);
		}
		const unknown = r.geo && r.geoPrice < 0;
		lines.push(`total:         ${fixed(r.total, 2)} ${cur}` +
			(unknown ? ' (without geo-replication: price unknown)' : ''));
		if (unknown && !r.price)
			lines.push('  note: the prices given have no geo-replication price: give ' +
				'--geo-price');
		else if (unknown)
			lines.push(`  note: no geo-replication price in ${r.region || ''} ` +
				`${r.currency || ''}; 'iorate catalog prices --provider azure --region ` +
				`${r.region || 'R'} --currency ${r.currency || 'USD'}' downloads it, or ` +
				'give --geo-price');
		if (r.price) {
			lines.push(`prices from:   ${r.price.source} (${r.region ? 'region ' : ''}` +
				`${r.region || ''}, dated ${priceAge(r.price)})`);
			if (r.price.stale)
				lines.push(staleNote(1));
		}
		return lines;
	}

	function uploadInputs() {
		const s = $('u-data').value.trim(), data = parseSize(s);
		fieldError('u-data', data === null || data === 0n ?
			`'${s}' is not a size (e.g. 750GiB; 4k is 4 KiB)` : '');
		const ms = $('u-months').value.trim(), months = parseNumber(ms, 0.001, 1200);
		fieldError('u-months', months === null ? `'${ms}' is not a number from 0.001 to 1200` : '');
		const ks = $('u-keep').value.trim();
		const keep = ks === '' ? undefined : parseNumber(ks, 0.001, 36500);
		fieldError('u-keep', keep === null ? `'${ks}' is not a number from 0.001 to 36500` : '');
		const u = {data, months, keep, chunk: BigInt($('u-chunk').value), tier: $('u-tier').value,
			red: $('u-redundancy').value, write: priceInput('u-write-price'),
			gb: priceInput('u-gb-price'), geo: priceInput('u-geo-price')};
		const bad = data === null || data === 0n || months === null || keep === null ||
			u.write === null || u.gb === null || u.geo === null;
		return bad ? null : u;
	}

	function renderUpload() {
		const u = uploadInputs(), r = u ? uploadCost(u) : {error: 'fix the values marked above'};
		const lines = $('u-lines'), body = $('u-chunks').tBodies[0];
		lines.replaceChildren();
		body.replaceChildren();
		$('u-error').textContent = r.error || '';
		$('u-total').textContent = r.error ? '' :
			`${fixed(r.total, 2)} ${r.currency || ''}`.trim();
		if (!r.error) {
			for (const text of uploadLines(u, r)) {
				const div = document.createElement('div');
				div.className = 'line' + (text.startsWith('note:') ? ' note' : '');
				div.textContent = text;
				lines.appendChild(div);
			}
			for (const c of r.by_chunk) {
				const tr = body.insertRow();
				tr.insertCell().textContent = fmtSize(c.chunk);
				const n = tr.insertCell();
				n.className = 'num';
				n.textContent = String(c.transactions);
				const a = tr.insertCell();
				a.className = 'amount';
				a.textContent = fixed(c.cost, 2);
			}
		}
		$('u-chunks').hidden = !!r.error;
		showChosen($('upload'));
	}

	function initUpload() {
		const i = U.initial;
		$('u-data').value = fmtSize(i.data === null ? 1n << 40n : BigInt(i.data));
		fill($('u-chunk'), U.chunks.map((c) => [c, fmtSize(BigInt(c))]), i.chunk);
		$('u-months').value = String(i.months);
		fill($('u-tier'), U.tiers.map((t) => [t, t]), (i.tier || 'hot').toLowerCase());
		fill($('u-redundancy'), U.redundancies.map((t) => [t, t]),
			(i.redundancy || 'lrs').toLowerCase());
		$('u-write-price').value = i.write_price === null ? '' : String(i.write_price);
		$('u-gb-price').value = i.gb_price === null ? '' : String(i.gb_price);
		$('u-geo-price').value = i.geo_price === null ? '' : String(i.geo_price);
		$('u-keep').value = i.keep === null ? '' : String(i.keep);
		up.market = initialMarket(U.markets, i.region, i.currency);
		fillMarket($('u-region'), $('u-currency'), U.markets, up.market);
		$('u-region').addEventListener('change', () => {
			up.market = marketAfter(U.markets, $('u-region').value,
				U.markets[up.market].currency);
			fillMarket($('u-region'), $('u-currency'), U.markets, up.market);
			renderUpload();
		});
		$('u-currency').addEventListener('change', () => {
			up.market = marketOf(U.markets, $('u-region').value, $('u-currency').value);
			renderUpload();
		});
		for (const id of ['u-data', 'u-chunk', 'u-months', 'u-keep', 'u-tier', 'u-redundancy',
			'u-write-price', 'u-gb-price', 'u-geo-price']) {
			$(id).addEventListener('input', renderUpload);
			$(id).addEventListener('change', renderUpload);
		}
	}

	/* ---- configuration (cost.c: cost_config, disk_lines; cost_fmt.c) ---- */

	const C = D.config;
	const conf = {prov: null, market: 0, vm: 0, groups: [], outcomes: null};
	const MIB_MB = 1.048576;        /* 1 MiB/s in MB/s (disk.c) */

	const market = () => conf.prov.markets[conf.market];

	/* How a disk choice resolves on the VM: its own outcome, or the VM's exception. */
	function outcome(vm, k) {
		const o = conf.outcomes.get(vm * 65536 + k);
		return o || conf.prov.choices[k].on;
	}

	function indexProvider(p) {
		conf.prov = p;
		conf.outcomes = new Map();
		for (const [vm, k, o] of p.exceptions)
			conf.outcomes.set(vm * 65536 + k, o);
		for (const m of p.markets) {
			m.vmPrice = new Map(m.vms.map((v) => [v[0], {per_hour: v[1], src: v[2]}]));
			m.diskPrice = new Map(m.disks.map((d) => [d[0], {per_month: d[1],
				per_gib_month: d[2], per_iops_month: d[3], per_mbps_month: d[4],
				per_10k: d[5], cap_hour: d[6], unit_kib: d[7], max_units: d[8],
				src: d[9], steps: d[10]}]));
		}
	}

	/* A group's SPEC as the command line takes it: "2xP30". */
	const groupSpec = (g) => (g.count === 1 ? '' : g.count + 'x') + conf.prov.choices[g.choice].spec;

	function outcomeMessage(o, g) {
		return (o[2] ? '--disk ' + groupSpec(g) : '') + D.messages[o[1]];
	}

	/*
	 * model_config_resolve(): every group's SPEC is read first, then model_check() checks the
	 * groups in order, then the counts (check_counts).
	 */
	function configError(vm) {
		const outs = conf.groups.map((g) => outcome(conf.vm, g.choice));
		for (const kind of [1, 2])
			for (let i = 0; i < outs.length; i++)
				if (outs[i][0] === kind)
					return outcomeMessage(outs[i], conf.groups[i]);
		let nlocal = 0, nos = 0, ndata = 0;
		outs.forEach((o, i) => {
			if (o[1] < 0)
				nlocal++;
			else if (conf.prov.disks[o[1]].os)
				nos += conf.groups[i].count;
			else
				ndata += conf.groups[i].count;
		});
		if (nlocal && (nlocal > 1 || ndata || nos))
			return '--disk local: the local disk is modelled alone, not striped with other disks';
		if (nos > 1 || (nos && ndata))
			return '--disk os: a VM has one OS disk, a volume of its own';
		if (vm.max_disks && ndata > vm.max_disks)
			return `--disk: ${ndata} data disks, but ${vm.name} takes at most ${vm.max_disks}`;
		/*
		 * Limits by disk type, over the groups of each type (a type the VM takes none of
		 * is refused already: every choice of it is one of the VM's exceptions).
		 */
		for (const [name, ds, max] of vm.by_type) {
			let n = 0;
			outs.forEach((o, i) => {
				n += ds.includes(o[1]) ? conf.groups[i].count : 0;
			});
			if (n > max)
				return `--disk: ${n} ${name} disks${name.endsWith('*') ? ' together' : ''}, ` +
					`but ${vm.name} takes at most ${max}`;
		}
		/* Capacity by disk type, likewise (the groups' GiB times their counts). */
		for (const [name, ds, max] of vm.gib_by_type) {
			let gib = 0;
			outs.forEach((o, i) => {
				gib += ds.includes(o[1]) ? o[2] * conf.groups[i].count : 0;
			});
			if (gib > max)
				return `--disk: ${fixed(gib, 0)} GiB of ${name} disks` +
					`${name.endsWith('*') ? ' together' : ''}, but ${vm.name} takes at most ` +
					`${max} GiB`;
		}
		return '';
	}

	/*
	 * The monthly cost, or {error}: cost_config() with the page's inputs, one formula a line,
	 * each added to the total in this order:
	 *   VM          per_hour * hours                       (given: vm_price * hours)
	 *   each group  per_month * count                      (given: disk_price * count)
	 *               per_gib_month * gib * count
	 *               per_iops_month * (iops - baseline IOPS) * count, above the baseline only
	 *               (a line per price step reached: the IOPS in it * the step's price)
	 *               per_mbps_month * (mbps - baseline MB/s) * count, likewise
	 *               operations: the I/O rate's share of one disk * operations per I/O
	 *               (its units, at most max_units) * 3600, up to the cap, * count * hours
	 *               / 10000 * per_10k
	 */
	function configCost(q) {
		const vm = conf.prov.vms[conf.vm], m = market();
		const b = {lines: [], total: 0, nstale: 0, currency: m.currency, region: m.region};
		const err = configError(vm);
		if (err)
			return {error: err};
		/* line(): at most COST_MAX_LINES lines; one more is dropped, and not added. */
		const line = (amount, p, what) => {
			if (b.lines.length >= C.max_lines)
				return;
			const src = p ? source(p.src) : GIVEN;
			b.lines.push({what: clip(what), amount, src});
			b.nstale += src.stale ? 1 : 0;
			b.total += amount;
		};
		const hours = q.hours;
		if (q.vm !== undefined) {
			line(q.vm * hours, null, `${vm.name}: ${fixed(hours, 0)} h x ${decimal(q.vm)} per hour`);
		} else {
			const p = m.vmPrice.get(conf.vm);
			if (!p)
				return {error: `cost config: no price for VM ${vm.name} (${conf.prov.name})` +
					`${where(m.region, m.currency)}; give --vm-price ('iorate catalog ` +
					`prices --provider ${conf.prov.name.startsWith('azure') ? 'azure' :
						conf.prov.name} --region ${m.region || 'R'} --currency ` +
					`${m.currency || 'USD'}' downloads current ones)`};
			line(p.per_hour * hours, p, `${vm.name}: ${fixed(hours, 0)} h x ` +
				`${decimal(p.per_hour)} per hour`);
		}
		/* The volume's disks, among which the I/O rate is shared. */
		let ndisks = 0;
		for (const g of conf.groups)
			ndisks += outcome(conf.vm, g.choice)[1] < 0 ? 0 : g.count;
		for (const g of conf.groups) {
			const o = outcome(conf.vm, g.choice);
			/* The temp disk comes with the VM. */
			if (o[1] < 0)
				continue;
			const e = diskLines(line, q, g.count, o, m, ndisks);
			if (e)
				return {error: e};
		}
		return b;
	}

	/* One group's lines: a fixed size's monthly price, or its provisioned parts. */
	function diskLines(line, q, count, o, m, ndisks) {
		const t = conf.prov.disks[o[1]], gib = o[2], iops = o[3], mbps = o[4];
		if (q.disk !== undefined) {
			line(q.disk * count, null, `${count} x ${t.name} at ${decimal(q.disk)} per month`);
			return '';
		}
		const p = m.diskPrice.get(o[1]);
		if (!p)
			return `cost config: no price for disk ${t.name} (${t.catalog})` +
				`${where(m.region, m.currency)}; give --disk-price`;
		if (p.per_month > 0)
			line(p.per_month * count, p,
				`${count} x ${t.name} at ${decimal(p.per_month)} per month`);
		if (p.per_gib_month > 0)
			line(p.per_gib_month * gib * count, p, `${count} x ${t.name}: ${qty(gib)} ` +
				`GiB x ${decimal(p.per_gib_month)} per GiB-month`);
		/*
		 * Provisioned types bill only what is above the free baseline, one line for each
		 * of the price's steps the IOPS reach (io2: 32,000, 64,000).
		 */
		if (p.per_iops_month > 0 && iops > t.iops) {
			let lo = 0;
			for (let k = 0; k <= p.steps.length; k++) {
				const hi = k < p.steps.length ? p.steps[k][0] : Infinity;
				const price = k ? p.steps[k - 1][1] : p.per_iops_month;
				const from = Math.max(lo, t.iops), to = Math.min(hi, iops);
				if (to > from)
					line(price * (to - from) * count, p, `${count} x ${t.name}: ` +
						`${fixed(to - from, 0)} IOPS above ${fixed(from, 0)} x ` +
						`${decimal(price)} per IOPS`);
				lo = hi;
			}
		}
		/*
		 * The catalog prices throughput per MB/s: the line says so, in MB/s, with the unit
		 * the provider provisions in beside it when that is MiB/s (AWS, GCP).
		 */
		if (p.per_mbps_month > 0 && mbps > t.mbps) {
			const mib = t.mib ? ` (${qty((mbps - t.mbps) / MIB_MB)} MiB/s)` : '';
			/* A type with no free baseline (Hyperdisk Throughput) bills all it provisions. */
			const above = t.mbps > 0 ? ` above ${qty(t.mbps)}` : '';
			line(p.per_mbps_month * (mbps - t.mbps) * count, p, `${count} x ${t.name}: ` +
				`${qty(mbps - t.mbps)} MB/s${mib}${above} x ` +
				`${decimal(p.per_mbps_month)} per MB/s`);
		}
		/*
		 * Operations: each I/O the group's disks do while the VM runs, one per unit of the
		 * disk type's size (at most its maximum per I/O), priced per 10,000 and billed up
		 * to the type's hourly cap per disk where it has one.
		 */
		if (p.per_10k > 0) {
			const diskIops = q.iops / (ndisks || 1);
			let units = p.unit_kib > 0 ? Math.ceil(q.bs / (p.unit_kib * 1024)) : 1;
			if (p.max_units > 0)
				units = Math.min(units, p.max_units);
			let perHour = diskIops * units * 3600;
			const capped = p.cap_hour > 0 && perHour > p.cap_hour;
			if (capped)
				perHour = p.cap_hour;
			if (diskIops > 0)
				line(perHour * count * q.hours / 10000 * p.per_10k, p, `${count} x ` +
					`${t.name}: ${qty(diskIops * count)} IOPS` +
					`${units > 1 ? ` (${fixed(units, 0)} ops each)` : ''} x ` +
					`${fixed(q.hours, 0)} h of operations${capped ? ' (capped)' : ''} x ` +
					`${decimal(p.per_10k)} per 10k`);
			else
				line(0, p, `${count} x ${t.name}: operations at ${decimal(p.per_10k)} ` +
					'per 10k, not counted (no I/O rate)');
		}
		return '';
	}

	/* --bs: opt_set_size() with its bounds, 1 B to 1 GiB; null (and said) when refused. */
	function bsInput() {
		const s = $('c-bs').value.trim(), n = parseSize(s);
		const why = n === null ? `'${s}' is not a size (examples: 4k, 64KiB, 1M)` :
			n < 1n ? `'${s}' is below 1B` :
			n > 1n << 30n ? `'${s}' is larger than the 1GiB limit` : '';
		fieldError('c-bs', why);
		return why ? null : Number(n);
	}

	function configInputs() {
		const hs = $('c-hours').value.trim(), hours = parseNumber(hs, 0.001, 744);
		fieldError('c-hours', hours === null ? `'${hs}' is not a number from 0.001 to 744` : '');
		const is = $('c-iops').value.trim();
		const iops = is === '' ? 0 : parseNumber(is, 0.001, 100000000);
		fieldError('c-iops', iops === null ?
			`'${is}' is not a number from 0.001 to 100000000` : '');
		const bs = bsInput();
		const q = {hours, iops, bs, vm: priceInput('c-vm-price'),
			disk: priceInput('c-disk-price')};
		return hours === null || iops === null || bs === null || q.vm === null ||
			q.disk === null ? null : q;
	}

	function renderConfig() {
		const q = configInputs(), b = q ? configCost(q) : {error: 'fix the values marked above'};
		const body = $('c-lines').tBodies[0];
		body.replaceChildren();
		$('c-error').textContent = b.error || '';
		$('c-total').textContent = b.error ? '' :
			`${fixed(b.total, 2)} ${b.currency} per month${b.region ? ' in ' + b.region : ''}`;
		$('c-note').textContent = b.error ? '' : staleNote(b.nstale);
		$('c-lines').hidden = !!b.error;
		for (const l of b.lines || []) {
			const tr = body.insertRow();
			tr.className = 'line';
			const w = tr.insertCell();
			w.className = 'what';
			w.textContent = l.what;
			const a = tr.insertCell();
			a.className = 'amount';
			a.textContent = `${fixed(l.amount, 2)} ${b.currency}`;
			const s = body.insertRow().insertCell();
			s.colSpan = 2;
			s.className = 'src' + (l.src.stale ? ' stale' : '');
			s.textContent = `source: ${l.src.source} (dated ${priceAge(l.src)})`;
		}
		if (!b.error) {
			const tr = body.insertRow();
			tr.className = 'line sum';
			tr.insertCell().textContent = 'total';
			tr.insertCell().className = 'amount';
			tr.cells[1].textContent = `${fixed(b.total, 2)} ${b.currency}`;
		}
		showChosen($('config'));
	}

	/* The choices in pull-down order: priced and fit for the VM, unpriced, not for the VM. */
	function choiceGroups() {
		const m = market(), out = [[], [], []];
		conf.prov.choices.forEach((c, k) => {
			const o = outcome(conf.vm, k);
			const priced = o[0] !== 0 || o[1] < 0 || m.diskPrice.has(o[1]);
			out[o[0] !== 0 ? 2 : priced ? 0 : 1].push([k, c.label]);
		});
		return out;
	}

	function fillChoices(select, value) {
		const m = market(), [ok, unpriced, unfit] = choiceGroups();
		select.replaceChildren();
		for (const [k, label] of ok)
			option(select, k, label);
		const labels = [`no price${where(m.region, m.currency)}`,
			`not for ${conf.prov.vms[conf.vm].name}`];
		[unpriced, unfit].forEach((list, i) => {
			if (!list.length)
				return;
			const g = optgroup(select, labels[i]);
			for (const [k, label] of list)
				option(g, k, label);
		});
		select.value = String(value);
	}

	function renderGroups() {
		const box = $('c-groups');
		box.replaceChildren();
		conf.groups.forEach((g, i) => {
			const row = document.createElement('div');
			row.className = 'group';
			const count = document.createElement('input');
			count.type = 'number';
			count.min = '1';
			count.max = '256';
			count.className = 'count';
			count.value = String(g.count);
			count.setAttribute('aria-label', `disk group ${i + 1}: how many disks`);
			const sel = document.createElement('select');
			sel.className = 'choice';
			sel.setAttribute('aria-label', `disk group ${i + 1}: which disk`);
			fillChoices(sel, g.choice);
			const del = document.createElement('button');
			del.type = 'button';
			del.className = 'remove';
			del.textContent = '\u00d7';
			del.title = 'remove this disk group';
			del.setAttribute('aria-label', `remove disk group ${i + 1}`);
			del.disabled = conf.groups.length === 1;
			const chosen = document.createElement('span');
			chosen.className = 'chosen';
			const show = () => {
				chosen.textContent = `${g.count} x ${conf.prov.choices[g.choice].label}`;
			};
			count.addEventListener('input', () => {
				const n = /^\d+$/.test(count.value) ? Number(count.value) : 0;
				count.setAttribute('aria-invalid', n >= 1 && n <= 256 ? 'false' : 'true');
				if (n >= 1 && n <= 256) {
					g.count = n;
					show();
					renderConfig();
				}
			});
			sel.addEventListener('change', () => {
				g.choice = Number(sel.value);
				show();
				renderConfig();
			});
			del.addEventListener('click', () => {
				conf.groups.splice(i, 1);
				renderGroups();
				renderConfig();
			});
			show();
			row.append(count, sel, del, chosen);
			box.appendChild(row);
		});
		$('c-add').disabled = conf.groups.length >= C.max_groups;
	}

	/* The VMs: those priced here first, then the others (a VM price of your own prices them). */
	function fillVms() {
		const m = market(), sel = $('c-vm');
		sel.replaceChildren();
		const priced = [], other = [];
		conf.prov.vms.forEach((v, i) => {
			const p = m.vmPrice.get(i);
			(p ? priced : other).push([i, p ? `${v.name} (${decimal(p.per_hour)} per hour)` :
				v.name]);
		});
		for (const [i, label] of priced)
			option(sel, i, label);
		if (other.length) {
			const g = optgroup(sel, `no price${where(m.region, m.currency)}`);
			for (const [i, label] of other)
				option(g, i, label);
		}
		sel.value = String(conf.vm);
	}

	/* The first choice that is priced and fits the VM (else the first of all). */
	function firstChoice() {
		const [ok, unpriced] = choiceGroups();
		return (ok[0] || unpriced[0] || [0])[0];
	}

	function selectProvider(p, init) {
		indexProvider(p);
		conf.market = init ? initialMarket(p.markets, init.region, init.currency) : 0;
		const m = market();
		conf.vm = init && init.vm !== null ? init.vm :
			m.vms.length ? m.vms[0][0] : 0;
		conf.groups = init && init.groups.length ?
			init.groups.map(([count, choice]) => ({count, choice})) :
			[{count: 1, choice: firstChoice()}];
		fillMarket($('c-region'), $('c-currency'), p.markets, conf.market);
		fillVms();
		renderGroups();
	}

	function initConfig() {
		const i = C.initial, sel = $('c-provider');
		if (!C.providers.length) {
			$('c-error').textContent = 'the catalog has no VM sizes';
			return false;
		}
		fill(sel, C.providers.map((p) => [p.name, p.name]), '');
		/* The command line's provider, else the first with a priced VM. */
		let p = C.providers.find((x) => x.name === i.provider);
		if (!p)
			p = C.providers.find((x) => x.markets.some((m) => m.vms.length)) ||
				C.providers[0];
		sel.value = p.name;
		selectProvider(p, p.name === i.provider ? i : null);
		$('c-hours').value = String(i.hours);
		$('c-iops').value = i.iops === null ? '' : String(i.iops);
		$('c-bs').value = fmtSize(BigInt(i.bs));
		$('c-vm-price').value = i.vm_price === null ? '' : String(i.vm_price);
		$('c-disk-price').value = i.disk_price === null ? '' : String(i.disk_price);
		sel.addEventListener('change', () => {
			selectProvider(C.providers.find((x) => x.name === sel.value), null);
			renderConfig();
		});
		const remarket = (m) => {
			conf.market = m;
			fillMarket($('c-region'), $('c-currency'), conf.prov.markets, m);
			fillVms();
			renderGroups();
			renderConfig();
		};
		$('c-region').addEventListener('change', () => remarket(marketAfter(conf.prov.markets,
			$('c-region').value, market().currency)));
		$('c-currency').addEventListener('change', () => remarket(marketOf(conf.prov.markets,
			$('c-region').value, $('c-currency').value)));
		$('c-vm').addEventListener('change', () => {
			conf.vm = Number($('c-vm').value);
			renderGroups();
			renderConfig();
		});
		$('c-add').addEventListener('click', () => {
			conf.groups.push({count: 1, choice: firstChoice()});
			renderGroups();
			renderConfig();
		});
		for (const id of ['c-hours', 'c-iops', 'c-bs', 'c-vm-price', 'c-disk-price']) {
			$(id).addEventListener('input', renderConfig);
			$(id).addEventListener('change', renderConfig);
		}
		return true;
	}

	/* ---- the page ---- */

	function open(part) {
		for (const name of ['upload', 'config']) {
			$(name).hidden = name !== part;
			$('tab-' + name).setAttribute('aria-selected', String(name === part));
		}
	}

	$('about').textContent = `Prices from the catalog iorate ${D.version} loaded on ${D.date} ` +
		'(built-in, downloaded with \'iorate catalog prices\', imported, and --catalog files); ' +
		`ages are counted to that day, and a price older than ${D.stale_after_days} days ` +
		'or undated is marked STALE. Nothing here is fetched: the page works offline.';
	$('written').textContent = `Written by iorate ${D.version} (${D.command}).`;
	$('tab-upload').addEventListener('click', () => open('upload'));
	$('tab-config').addEventListener('click', () => open('config'));
	initUpload();
	renderUpload();
	if (initConfig())
		renderConfig();
	open(D.open);
})();

/*
 * PNG files of the charts (report/png.h): librsvg draws the SVG document onto a cairo image
 * surface, which cairo encodes as PNG. Text is laid out by Pango with the fonts fontconfig
 * finds for CHART_FONT, the same monospace fonts a browser uses for the page.
 */
#include "report/png.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "util/err.h"

#ifdef HAVE_RSVG
#include <cairo.h>
#include <dlfcn.h>
#include <librsvg/rsvg.h>
#include <pthread.h>

/*
 * librsvg and what it brings (cairo, Pango, GLib, fontconfig, ...) are opened on first use,
 * not linked: loaded at start they cost every run about 6 MiB of memory for a feature only
 * 'report --png' uses. The functions are looked up in librsvg's handle, which also finds
 * those of the libraries it depends on.
 */
static struct {
	bool ok;
	char why[256];
	RsvgHandle *(*new_from_data)(const guint8 *, gsize, GError **);
	void (*set_dpi)(RsvgHandle *, double);
	gboolean (*intrinsic_size)(RsvgHandle *, gdouble *, gdouble *);
	gboolean (*render_document)(RsvgHandle *, cairo_t *, const RsvgRectangle *, GError **);
	void (*error_free)(GError *);
	void (*object_unref)(gpointer);
	cairo_surface_t *(*image_surface_create)(cairo_format_t, int, int);
	cairo_status_t (*surface_status)(cairo_surface_t *);
	void (*surface_destroy)(cairo_surface_t *);
	cairo_status_t (*write_png)(cairo_surface_t *, cairo_write_func_t, void *);
	cairo_t *(*create)(cairo_surface_t *);
	void (*scale)(cairo_t *, double, double);
	void (*destroy)(cairo_t *);
} rs;
static pthread_once_t rs_once = PTHREAD_ONCE_INIT;

static void rs_open(void)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
#define SYM(field, nm) {.name = nm, .off = offsetof(__typeof__(rs), field)}
		SYM(new_from_data, "rsvg_handle_new_from_data"),
		SYM(set_dpi, "rsvg_handle_set_dpi"),
		SYM(intrinsic_size, "rsvg_handle_get_intrinsic_size_in_pixels"),
		SYM(render_document, "rsvg_handle_render_document"),
		SYM(error_free, "g_error_free"),
		SYM(object_unref, "g_object_unref"),
		SYM(image_surface_create, "cairo_image_surface_create"),
		SYM(surface_status, "cairo_surface_status"),
		SYM(surface_destroy, "cairo_surface_destroy"),
		SYM(write_png, "cairo_surface_write_to_png_stream"),
		SYM(create, "cairo_create"),
		SYM(scale, "cairo_scale"),
		SYM(destroy, "cairo_destroy"),
#undef SYM
	};
	void *h = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(rs.why, sizeof(rs.why), "librsvg cannot be loaded (Debian package "
			 "librsvg2-2): %s", dlerror());
		return;
	}
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *f = dlsym(h, syms[i].name);

		if (!f) {
			snprintf(rs.why, sizeof(rs.why), "librsvg-2.so.2 has no %s", syms[i].name);
			return;
		}
		/* A function pointer is stored from dlsym's object pointer, as POSIX allows. */
		memcpy((char *)&rs + syms[i].off, &f, sizeof(f));
	}
	rs.ok = true;
}

bool report_png_available(void)
{
	pthread_once(&rs_once, rs_open);
	return rs.ok;
}

static cairo_status_t write_to(void *arg, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, arg) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int refused(GError *e, const char *what, char *err, size_t errlen)
{
	int rc = err_set(err, errlen, -EINVAL, "%s: %s", what, e ? e->message : "failed");

	if (e)
		rs.error_free(e);
	return rc;
}

/* Draws h at scale onto a new surface of its size; the caller destroys *out. */
static int draw(RsvgHandle *h, cairo_surface_t **out, char *err, size_t errlen)
{
	gdouble w = 0, ht = 0;
	GError *e = NULL;
	cairo_t *cr;
	int rc = 0;

	if (!rs.intrinsic_size(h, &w, &ht) || w < 1 || ht < 1)
		return refused(NULL, "the SVG has no size in pixels", err, errlen);
	*out = rs.image_surface_create(CAIRO_FORMAT_ARGB32, (int)(w * REPORT_PNG_SCALE),
					(int)(ht * REPORT_PNG_SCALE));
	if (rs.surface_status(*out) != CAIRO_STATUS_SUCCESS)
		return -ENOMEM;
	cr = rs.create(*out);
	rs.scale(cr, REPORT_PNG_SCALE, REPORT_PNG_SCALE);
	if (!rs.render_document(h, cr, &(RsvgRectangle){0, 0, w, ht}, &e))
		rc = refused(e, "rendering the SVG", err, errlen);
	rs.destroy(cr);
	return rc;
}

int report_png_write(FILE *f, const char *svg, size_t len, char *err, size_t errlen)
{
	GError *e = NULL;
	RsvgHandle *h;
	cairo_surface_t *s = NULL;
	int rc;

	if (!report_png_available())
		return err_set(err, errlen, -ENOTSUP, "%s", rs.why);
	if (!(h = rs.new_from_data((const guint8 *)svg, len, &e)))
		return refused(e, "reading the SVG", err, errlen);
	rs.set_dpi(h, 96);
	if (!(rc = draw(h, &s, err, errlen)) &&
	    rs.write_png(s, write_to, f) != CAIRO_STATUS_SUCCESS)
		rc = err_set(err, errlen, -EIO, "writing the PNG: %s", strerror(EIO));
	if (s)
		rs.surface_destroy(s);
	rs.object_unref(h);
	return rc;
}

#else

bool report_png_available(void)
{
	return false;
}

int report_png_write(FILE *f, const char *svg, size_t len, char *err, size_t errlen)
{
	(void)f, (void)svg, (void)len;
	return err_set(err, errlen, -ENOTSUP,
		       "this iorate was built without librsvg (make deps installs librsvg2-dev)");
}

#endif
